// Costs bounded by the server: every string and array any tool takes (every packaged profile, every capability) has a length limit in its input schema.
import { describe, expect, it } from 'vitest';
import { packagedToolListing } from '../src/protocol/tool-listing.js';

type Schema = Record<string, unknown>;

/**
 * Values a tool's schema shows as "any object", with the reason they are bounded all the same. create_session's
 * storageState is what export_storage_state gave (a model passes it on whole): the tool checks it against
 * session-core's storage-state schema, every string and list of which has a limit (session-options.test.ts);
 * load_storage_state's is checked against the same schema. A step's args of run_steps are that step's tool's arguments,
 * checked with its own schema (whose limits this test reads) before any step runs.
 */
const OPEN_VALUES = new Set(['create_session.storageState', 'load_storage_state.storageState', 'run_steps.steps[].args', 'browser_run_steps.steps[].args']);

/** The places under `schema` that take a string or a list of any length, or any value at all, as paths. */
function unbounded(schema: Schema, at: string): string[] {
  const found: string[] = [];
  const types = [schema.type].flat();
  const keys = Object.keys(schema).filter((key) => key !== 'description');
  if (keys.length === 0) found.push(`${at} (any value)`);
  // An object that names neither its keys nor what its values are takes anything.
  if (types.includes('object') && schema.properties === undefined && schema.additionalProperties === undefined) found.push(`${at} (any object)`);
  if (types.includes('string') && schema.enum === undefined && schema.const === undefined && typeof schema.maxLength !== 'number') found.push(at);
  if (types.includes('array') && typeof schema.maxItems !== 'number') found.push(at);
  const child = (value: unknown, path: string) => {
    if (value === true) found.push(`${path} (any value)`);
    else if (typeof value === 'object' && value !== null) found.push(...unbounded(value as Schema, path));
  };
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    if (!OPEN_VALUES.has(`${at}.${name}`)) child(property, `${at}.${name}`);
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) child(schema.additionalProperties, `${at}{value}`);
  if (schema.propertyNames !== undefined) child(schema.propertyNames, `${at}{key}`);
  if (schema.items !== undefined) child(schema.items, `${at}[]`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [index, option] of ((schema[key] ?? []) as unknown[]).entries()) child(option, `${at}|${index}`);
  }
  return found;
}

describe('tool input limits', () => {
  const listing = packagedToolListing();

  it.each(Object.keys(listing))('every string and list argument of the %s profile has a length limit', (profile) => {
    const tools = Object.values(listing[profile as keyof typeof listing] ?? {});
    expect(tools.length).toBeGreaterThan(20);
    const open = tools.flatMap((tool) => unbounded(tool.inputSchema as Schema, tool.name).filter((path) => path !== tool.name));
    expect(open).toEqual([]);
  });

  it('finds an unbounded string, list or open value wherever it is nested', () => {
    const schema = {
      type: 'object',
      properties: {
        bounded: { type: 'string', maxLength: 10 },
        choice: { type: 'string', enum: ['a'] },
        free: { type: 'string' },
        list: { type: 'array', maxItems: 3, items: { type: 'object', properties: { deep: { type: 'string' } } } },
        many: { type: 'array', items: { type: 'number' } },
        either: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
        map: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string', maxLength: 1 } },
        anything: { description: 'whatever' },
        bag: { type: 'object' },
      },
    };
    expect(unbounded(schema, 't')).toEqual(['t.free', 't.list[].deep', 't.many', 't.either|0', 't.map{key}', 't.anything (any value)', 't.bag (any object)']);
  });
});
