// A 2026-07-28 client by hand: each call is one independent HTTP request (no initialize, no Mcp-Session-Id), carrying the
// per-request _meta and the standard headers, as the revision asks; the answer is read whether it is JSON or an SSE stream.
import { request } from 'node:http';

export const MODERN = '2026-07-28';

export interface ModernAnswer {
  status: number;
  headers: Headers;
  /** Every JSON-RPC message of the answer, in order (one for a JSON body; notifications then the response for a stream). */
  messages: any[];
  /** The response to the request (the last message carrying its id). */
  response: any;
  /** For tools/call: content[0].text parsed as JSON. */
  json: any;
}

export interface ModernOptions {
  token?: string;
  /** `_meta` keys besides the envelope (progressToken, logLevel …). */
  meta?: Record<string, unknown>;
  /** Headers to add or, with undefined, leave out. */
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

let nextId = 1;

/** One 2026-07-28 request to `${base}/mcp`. */
export async function modernRequest(base: string, method: string, params: Record<string, unknown> = {}, options: ModernOptions = {}): Promise<ModernAnswer> {
  const id = nextId++;
  const { logLevel, ...meta } = options.meta ?? {};
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        ...meta,
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': { name: 'modern-by-hand', version: '0.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
        ...(logLevel === undefined ? {} : { 'io.modelcontextprotocol/logLevel': logLevel }),
      },
    },
  };
  // Mcp-Name carries a tool's or prompt's name, or a resource's URI.
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const sessionId = (params.arguments as { sessionId?: unknown } | undefined)?.sessionId;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
    ...(typeof sessionId === 'string' ? { 'Mcp-Param-Session-Id': sessionId } : {}),
    ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
  };
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[key];
    else headers[key] = value;
  }
  const res = await post(`${base}/mcp`, headers, JSON.stringify(body), options.signal);
  const text = res.body;
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice('data:'.length)))
    : text === ''
      ? []
      : [JSON.parse(text)];
  const response = messages.findLast((message) => message.id === id);
  const first = response?.result?.content?.[0];
  return { status: res.status, headers: res.headers, messages, response, json: first?.type === 'text' ? JSON.parse(first.text) : undefined };
}

/**
 * One POST on a socket of its own (no keep-alive: a reused socket that the server closes as it is reused fails a
 * request for reasons that have nothing to do with the server under test).
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal | undefined,
): Promise<{ status: number; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false, ...(signal ? { signal } : {}) }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answer.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: answer, body: text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** tools/call as one independent 2026-07-28 request. */
export function modernCall(base: string, name: string, args: Record<string, unknown> = {}, options: ModernOptions = {}): Promise<ModernAnswer> {
  return modernRequest(base, 'tools/call', { name, arguments: args }, options);
}
