// The tool definitions as data: what every tool must say to a model, checked for the whole list at once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allTools, everyTool, toolsFor } from '../src/index.js';

/** Codes any tool may answer without explaining them: bad arguments, and the browser failing (with details.reason). */
const GENERIC = new Set(['INVALID_PARAMETERS', 'BROWSER_ERROR']);
/** Codes any tool that takes a sessionId may answer without explaining them: their messages say what to do. */
const SESSION_CODES = new Set(['SESSION_NOT_FOUND', 'SESSION_EXPIRED']);

describe.each(everyTool.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  it('explains in its description every specific error code it can answer', () => {
    const takesSession = 'sessionId' in (tool.input as z.ZodObject).shape;
    const unexplained = tool.errors.filter((code) => !GENERIC.has(code) && !(takesSession && SESSION_CODES.has(code)) && !tool.description.includes(code));
    expect(unexplained).toEqual([]);
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
  it('keeps the default list at 26 tools or fewer, every capability tool out of it', () => {
    expect(allTools.length).toBeLessThanOrEqual(26);
    expect(allTools.every((tool) => tool.capability === undefined)).toBe(true);
  });

  it('adds exactly the groups asked for, and every group for all', () => {
    const names = (caps: string[]) => toolsFor(caps).map((tool) => tool.name);
    expect(names([])).toEqual(allTools.map((tool) => tool.name));
    expect(names(['network']).slice(allTools.length)).toEqual(['network_requests', 'network_request']);
    expect(names(['pdf', 'storage']).slice(allTools.length).sort()).toEqual(['cookies', 'export_storage_state', 'save_pdf']);
    expect(names(['all'])).toHaveLength(everyTool.length);
    expect(new Set(names(['all'])).size).toBe(everyTool.length);
  });
});
