// The sessionId as an HTTP header (2026-07-28 `x-mcp-header`): clients copy it into Mcp-Param-Session-Id on every
// tools/call, so a gateway in front of several servers can send each call to the one that holds its session without
// reading the body; the server checks that the header says what the body says. The SDK checks Mcp-Param-* headers
// itself only for tools registered with McpServer.registerTool, and its refusal quotes the body's value: a sessionId is
// a bearer capability, so this check's refusal names none (docs/decisions.md).
import type { IncomingHttpHeaders } from 'node:http';
import type { Tool } from '@modelcontextprotocol/server';

/** The `x-mcp-header` name of the sessionId argument: requests carry it as `Mcp-Param-Session-Id`. */
const SESSION_ID_HEADER = 'Session-Id';
const HEADER_KEY = `mcp-param-${SESSION_ID_HEADER.toLowerCase()}`;

/**
 * The tool's tools/list entry for 2026-07-28 clients: its sessionId argument, if it has one, declares the header.
 * ToolSurface keeps the result, so each entry is decorated once per runtime.
 */
export function withSessionIdHeader(tool: Tool): Tool {
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>> | undefined;
  const sessionId = properties?.sessionId;
  if (sessionId?.type !== 'string') return tool;
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...properties, sessionId: { ...sessionId, 'x-mcp-header': SESSION_ID_HEADER } } } };
}

/**
 * Why a 2026-07-28 tools/call's Mcp-Param-Session-Id header disagrees with its body, or undefined when it agrees (or the
 * call carries no sessionId, or its tool takes none: `takesSessionId`). A value in the body needs the header; the header
 * may carry it as `=?base64?…?=`, which must then be canonical Base64 of UTF-8.
 */
export function sessionIdHeaderMismatch(body: unknown, headers: IncomingHttpHeaders, takesSessionId: (tool: string) => boolean): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string' || !takesSessionId(params.name)) return undefined;
  const value = (params.arguments as { sessionId?: unknown } | undefined)?.sessionId;
  if (typeof value !== 'string') return undefined;
  const raw = headers[HEADER_KEY];
  const header = Array.isArray(raw) ? raw.join(', ') : raw;
  const name = `Mcp-Param-${SESSION_ID_HEADER}`;
  if (header === undefined) return `the body carries a sessionId but the ${name} header is absent`;
  const decoded = decodeParamValue(header.trim());
  if (decoded === undefined) return `the ${name} header carries an invalid Base64 value`;
  if (decoded !== value) return `the ${name} header and the body's sessionId differ`;
  return undefined;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as sent: literal, or `=?base64?<canonical Base64 of UTF-8>?=`; undefined for a bad Base64 payload. */
function decodeParamValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const payload = value.slice('=?base64?'.length, -'?='.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}
