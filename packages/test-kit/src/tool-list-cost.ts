// What a tool list costs a model: a client hands it every tool's name, description and input schema on every turn, counted as the characters of that JSON; tools only an MCP App calls are not handed to it.

/** The part of a tools/list entry a client hands the model, and the `_meta` that says whether it does. */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
  _meta?: Record<string, unknown> | undefined;
}

export interface ToolListCost {
  /** Tools the model is sent (app-only ones left out). */
  tools: number;
  /** Characters of the JSON array of {name, description, inputSchema} of those tools. */
  chars: number;
  perTool: number;
  /** Tools only an MCP App calls (`_meta.ui.visibility` without "model"): hosts do not hand them to the model. */
  appOnly: number;
  /** What those would add, in the same characters, to a client that hands the model the whole list anyway. */
  appOnlyChars: number;
}

/** Whether hosts keep a tool from the model: MCP Apps' `_meta.ui.visibility` is given and does not name "model". */
export function isAppOnly(tool: ListedTool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}

export function toolListCost(listed: readonly ListedTool[]): ToolListCost {
  const cost = (tools: readonly ListedTool[]) => JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length;
  const tools = listed.filter((tool) => !isAppOnly(tool));
  const chars = cost(tools);
  const appOnly = listed.length - tools.length;
  return {
    tools: tools.length,
    chars,
    perTool: tools.length === 0 ? 0 : chars / tools.length,
    appOnly,
    appOnlyChars: appOnly === 0 ? 0 : cost(listed) - chars,
  };
}
