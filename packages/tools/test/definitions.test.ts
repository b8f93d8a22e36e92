// The tool definitions as data: what every tool must say to a model, checked for the whole list at once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allTools, everyTool, playwrightProfile, toolsFor } from '../src/index.js';

/** Codes any tool may answer without explaining them: bad arguments, and the browser failing (with details.reason). */
const GENERIC = new Set(['INVALID_PARAMETERS', 'BROWSER_ERROR']);

/** The longest description a model is sent: a sentence or two; the rest is in the tool's notes. */
const MAX_DESCRIPTION = 120;

const profileTools = [...everyTool, ...playwrightProfile(['all']).tools.filter((tool) => !everyTool.includes(tool))];

describe.each(everyTool.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  it('explains in its notes (docs/tools.md) every specific error code it can answer', () => {
    const unexplained = tool.errors.filter((code) => !GENERIC.has(code) && !tool.notes?.includes(code));
    expect(unexplained).toEqual([]);
  });
});

// The playwright profile's page lists each tool's codes beside its notes (docs/tools.md).
describe.each(profileTools.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  it('says in a sentence or two what it does, and more in its notes', () => {
    expect(tool.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(tool.description.split(/[.!?](?:\s|$)/).filter((sentence) => sentence.trim() !== '').length).toBeLessThanOrEqual(2);
    expect(tool.notes?.length ?? 0).toBeGreaterThan(tool.description.length);
  });

  it('describes every input field, and rejects unknown ones', () => {
    const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { properties?: Record<string, { description?: string }>; additionalProperties?: unknown };
    const undescribed = Object.entries(schema.properties ?? {})
      .filter(([, field]) => !field.description)
      .map(([key]) => key);
    expect(undescribed).toEqual([]);
    expect(schema.additionalProperties).toBe(false);
  });

  it('has a snake_case name and a title', () => {
    expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(tool.title.trim()).not.toBe('');
  });
});

describe('capabilities', () => {
  it('keeps the default list at 27 tools or fewer (26 and run_steps), every capability tool out of it', () => {
    expect(allTools.length).toBeLessThanOrEqual(27);
    expect(allTools.every((tool) => tool.capability === undefined)).toBe(true);
  });

  it('adds exactly the groups asked for, and every group for all', () => {
    const names = (caps: string[]) => toolsFor(caps).map((tool) => tool.name);
    expect(names([])).toEqual(allTools.map((tool) => tool.name));
    expect(names(['network']).slice(allTools.length)).toEqual(['network_requests', 'network_request', 'route']);
    expect(names(['vision']).slice(allTools.length)).toEqual(['mouse']);
    expect(names(['pdf', 'storage']).slice(allTools.length).sort()).toEqual([
      'cookies',
      'export_storage_state',
      'load_storage_state',
      'save_pdf',
      'web_storage',
    ]);
    expect(names(['testing']).slice(allTools.length)).toEqual(['verify', 'generate_locator']);
    expect(names(['all'])).toHaveLength(everyTool.length);
    expect(new Set(names(['all'])).size).toBe(everyTool.length);
  });
});
