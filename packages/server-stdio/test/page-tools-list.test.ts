// The page tools as tools/list shows them through the server: order, titles, short descriptions, strict described inputs, output schemas and annotations.
import { describe, expect, it } from 'vitest';
import { useServerWithFixture } from './helpers.js';

const server = useServerWithFixture();

describe('tools/list', () => {
  it('lists the page tools in order, each with a title, a description, described strict inputs, an output schema and annotations', async () => {
    const { tools } = await server.connection().client.listTools();
    const names = tools.map((tool) => tool.name);
    const pageTools = [
      'go_back',
      'go_forward',
      'reload',
      'snapshot',
      'screenshot',
      'press_key',
      'hover',
      'select_option',
      'check',
      'uncheck',
      'wait_for',
      'evaluate',
    ];
    for (const name of pageTools) expect(names).toContain(name);
    // Lifecycle, navigation, reading, input, waiting, evaluate.
    const order = ['create_session', 'navigate', 'go_back', 'snapshot', 'screenshot', 'click', 'press_key', 'select_option', 'wait_for', 'evaluate'];
    expect(order.map((name) => names.indexOf(name))).toEqual([...order.map((name) => names.indexOf(name))].sort((a, b) => a - b));
    for (const tool of tools.filter((candidate) => pageTools.includes(candidate.name))) {
      expect(tool.title, tool.name).toBeTruthy();
      // A sentence or two for the model; the errors say what to do next, and docs/tools.md the rest.
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.description?.length, tool.name).toBeLessThanOrEqual(120);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('snapshot')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('screenshot')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('press_key')?.annotations?.readOnlyHint).toBe(false);
    for (const name of ['navigate', 'click', 'type', 'press_key', 'select_option']) {
      expect(Object.keys(byName.get(name)?.inputSchema.properties ?? {}), name).toContain('includeSnapshot');
    }
    for (const name of ['click', 'type', 'hover', 'select_option', 'press_key', 'screenshot', 'wait_for', 'evaluate', 'snapshot', 'check', 'uncheck']) {
      expect(Object.keys(byName.get(name)?.inputSchema.properties ?? {}), name).toEqual(expect.arrayContaining(['selector', 'ref']));
    }
  });
});
