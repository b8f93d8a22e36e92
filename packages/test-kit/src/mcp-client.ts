// Reading a tool's answer in tests: content[0].text parsed as JSON, beside the raw result.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface JsonToolResult {
  isError: boolean;
  /** content[0].text parsed as JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields straight off the JSON a tool answered.
  json: any;
  result: CallToolResult;
}

/** Calls a tool and parses content[0].text as JSON; throws when the result is not JSON text. */
export async function callJson(client: Client, name: string, args: Record<string, unknown> = {}): Promise<JsonToolResult> {
  const result = await client.callTool({ name, arguments: args });
  // callTool's type also covers the pre-2024 `toolResult` shape, which no server here sends.
  if (!('content' in result) || !Array.isArray(result.content)) {
    throw new Error(`callJson(${name}): result has no content array: ${JSON.stringify(result).slice(0, 500)}`);
  }
  const typed = result as CallToolResult;
  const first = typed.content[0];
  if (first?.type !== 'text') {
    throw new Error(`callJson(${name}): expected content[0] to be JSON text, got ${first ? first.type : 'no content'}`);
  }
  try {
    return { isError: typed.isError === true, json: JSON.parse(first.text), result: typed };
  } catch {
    throw new Error(`callJson(${name}): content[0].text is not JSON: ${first.text.slice(0, 500)}`);
  }
}
