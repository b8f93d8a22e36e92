// The tool definitions as data: what every tool must say to a model, checked for the whole list at once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allTools } from '../src/index.js';

/** Codes any tool may answer without explaining them: bad arguments, and the browser failing (with details.reason). */
const GENERIC = new Set(['INVALID_PARAMETERS', 'BROWSER_ERROR']);

describe.each(allTools.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  it('explains in its description every specific error code it can answer', () => {
    const unexplained = tool.errors.filter((code) => !GENERIC.has(code) && !tool.description.includes(code));
    expect(unexplained).toEqual([]);
  });

  it('describes every input field, and rejects unknown ones', () => {
    const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { properties?: Record<string, { description?: string }>; additionalProperties?: unknown };
    const undescribed = Object.entries(schema.properties ?? {}).filter(([, field]) => !field.description).map(([key]) => key);
    expect(undescribed).toEqual([]);
    expect(schema.additionalProperties).toBe(false);
  });

  it('has a snake_case name and a title', () => {
    expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(tool.title.trim()).not.toBe('');
  });
});
