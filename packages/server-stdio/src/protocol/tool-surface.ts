// The tools a runtime serves, prepared once for all its protocol servers: each found by name, its tools/list entry in
// each protocol era (described on first use, then kept), and which of them take a sessionId.
import type { ProtocolEra, Tool } from '@modelcontextprotocol/server';
import { annotationsFor, type AnyTool, type Profile } from '@sessionwright/tools';
import { z } from 'zod';
import { RESTORED_SCHEMA } from './restored-result.js';
import { appToolMeta, isAppOnly } from '../live-view/mcp-app.js';
import { withSessionIdHeader } from './session-header.js';

/** The tools one runtime serves. Every connection's and every 2026-07-28 request's server reads the same one. */
export interface ToolSurface {
  readonly profile: Profile;
  /** The served tools by name: a call finds its tool with one map read. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The names of the live view app's own tools, which only an MCP Apps client may call. */
  readonly appOnly: ReadonlySet<string>;
  /** The served tools' names in list order (an unknown tool's error names them). */
  readonly names: readonly string[];
  /** The tools of a tools/list answer in this era: a 2026-07-28 entry's sessionId declares its `x-mcp-header`. */
  listing(era: ProtocolEra): Tool[];
  /** Whether the tool takes a sessionId: a fleet routes its calls by it, and a 2026-07-28 request mirrors it in a header. */
  takesSessionId(name: string): boolean;
}

/**
 * The surface of a profile. `listed`: a tool's entry made ahead of time, if there is one (the runtime passes the
 * build's for its packaged profiles); other tools are described when first listed, so the JSON Schema work never
 * delays a connection's initialize.
 */
export function toolSurface(profile: Profile, listed?: (tool: AnyTool) => Tool | undefined): ToolSurface {
  const byName = new Map(profile.tools.map((tool) => [tool.name, tool]));
  const withSessionId = new Set(profile.tools.filter((tool) => 'sessionId' in tool.input.shape).map((tool) => tool.name));
  let legacy: Tool[] | undefined;
  let modern: Tool[] | undefined;
  return {
    profile,
    tools: byName,
    appOnly: new Set(profile.tools.filter((tool) => isAppOnly(tool.meta)).map((tool) => tool.name)),
    names: [...byName.keys()],
    listing(era) {
      legacy ??= profile.tools.map((tool) => listed?.(tool) ?? describeTool(tool));
      if (era === 'legacy') return legacy;
      modern ??= legacy.map(withSessionIdHeader);
      return modern;
    },
    takesSessionId: (name) => withSessionId.has(name),
  };
}

/**
 * The tools/list entry of a tool: JSON Schemas made from its zod schemas, annotations from its kind. A client sends
 * the model the name, description and input schema on every turn, so the input schema carries what a model acts on
 * (types, choices, what is required, no other arguments, the length limits) and leaves out what the tool checks itself
 * and says in its error when a value is wrong: the `$schema` key (MCP already says JSON Schema 2020-12), numeric
 * ranges, patterns and formats (a description shows the form: "e.g. e12"), a `minLength` or `minItems` of 1. The tool's notes are for
 * people (docs/tools.md). Output schemas stay whole.
 */
export function describeTool(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: modelFacing(tool.input) as Tool['inputSchema'],
    outputSchema: withRestoredField(tool, withoutDialect(z.toJSONSchema(tool.output, { io: 'output' }))) as Tool['outputSchema'],
    annotations: { title: tool.title, ...annotationsFor(tool.kind) },
    ...(tool.meta === undefined ? {} : { _meta: appToolMeta(tool.meta) }),
  };
}

/**
 * A session tool's result may say that its session was restored for it (a fleet's replica died, or the server
 * restarted): the output schema names that field, so a client that checks results against it accepts it.
 */
function withRestoredField(tool: AnyTool, schema: Record<string, unknown>): Record<string, unknown> {
  if (!('sessionId' in tool.input.shape) || tool.name === 'create_session') return schema;
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties === undefined) return schema;
  return { ...schema, properties: { ...properties, restored: RESTORED_SCHEMA } };
}

/** An input schema as a model reads it (see describeTool); the tool still checks every argument with its zod schema. */
function modelFacing(schema: z.ZodType): Record<string, unknown> {
  return withoutDialect(
    z.toJSONSchema(schema, {
      io: 'input',
      override: ({ jsonSchema, path }) => {
        for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'format', 'contentEncoding'] as const)
          delete jsonSchema[key];
        if (jsonSchema.minLength === 1) delete jsonSchema.minLength;
        if (jsonSchema.minItems === 1) delete jsonSchema.minItems;
        if (path.length > 0) {
          // The arguments object says that no other keys are taken; an object inside it lists its keys and leaves the
          // rest to the tool, which refuses unknown keys at any depth. One that takes any keys (storageState) says so
          // by saying nothing.
          if (jsonSchema.additionalProperties === false || isEmptyObject(jsonSchema.additionalProperties)) delete jsonSchema.additionalProperties;
          if (isEmptyObject(jsonSchema.properties)) delete jsonSchema.properties;
        }
      },
    }),
  );
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
