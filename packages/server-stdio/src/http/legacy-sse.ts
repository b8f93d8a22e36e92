// The 2024-11-05 HTTP+SSE transport (GET opens an event stream, POST /messages?sessionId=… delivers each message), which
// the SDK's v2 server does not serve and clients that only know it need.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/**
 * One legacy SSE connection: its event stream is `res`, and the client posts to `endpoint?sessionId=<id>`. The stream
 * carries a comment line every `keepAliveMs`, so proxies and clients see traffic on a quiet stream and keep it open.
 */
export class LegacySseTransport implements Transport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly endpoint: string;
  private readonly res: ServerResponse;
  private readonly keepAliveMs: number;
  private keepAlive: NodeJS.Timeout | undefined;
  private open = false;
  private closed = false;

  /** `sessionId`: the connection's id (in a fleet, one that names its replica); a random one by default. */
  constructor(endpoint: string, res: ServerResponse, options: { keepAliveMs: number; sessionId?: string }) {
    this.sessionId = options.sessionId ?? randomUUID();
    this.endpoint = endpoint;
    this.res = res;
    this.keepAliveMs = options.keepAliveMs;
  }

  async start(): Promise<void> {
    if (this.open || this.closed) throw new Error('LegacySseTransport: already started');
    this.open = true;
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.res.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${this.sessionId}\n\n`);
    // A client that went away before its stream was served: the connection ends at once.
    if (this.res.destroyed) queueMicrotask(() => this.ended());
    else this.res.on('close', () => this.ended());
    this.keepAlive = setInterval(() => this.res.write(': keepalive\n\n'), this.keepAliveMs);
    this.keepAlive.unref();
  }

  /** A client's POST: its parsed JSON `body` is one JSON-RPC message, delivered to the server; answered 202. */
  handlePost(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!this.open) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('The SSE stream for this sessionId is closed.');
      return;
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      res.writeHead(415, { 'Content-Type': 'text/plain' }).end('Unsupported Media Type: send Content-Type: application/json.');
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(body);
    } catch (error) {
      // The body is not quoted back: it may carry a token or a password.
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Invalid message: the body is not a JSON-RPC message.');
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    res.writeHead(202, { 'Content-Type': 'text/plain' }).end('Accepted');
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.open) throw new Error('Not connected');
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    this.res.end();
    this.ended();
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    clearInterval(this.keepAlive);
    this.onclose?.();
  }
}
