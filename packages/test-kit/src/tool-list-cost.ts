// What a tool list costs a model: a client hands it every tool's name, description and input schema on every turn, counted as the characters of that JSON.

/** The part of a tools/list entry a client hands the model. */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

export interface ToolListCost {
  tools: number;
  /** Characters of the JSON array of {name, description, inputSchema}. */
  chars: number;
  perTool: number;
}

export function toolListCost(tools: readonly ListedTool[]): ToolListCost {
  const chars = JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length;
  return { tools: tools.length, chars, perTool: tools.length === 0 ? 0 : chars / tools.length };
}
