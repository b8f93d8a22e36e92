// A real HTTP forward proxy on 127.0.0.1 for tests: it serves made-up host names that only exist behind it, and can demand a password.
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { startLocalServer } from './local-server.js';

export interface ForwardProxyOptions {
  /**
   * Host names the proxy knows and the origin each one is served from, e.g.
   * `{ 'only-via-proxy.test': fixture.url }`. Without the proxy such a name resolves nowhere.
   */
  hosts: Record<string, string>;
  /** When set, requests without these Basic credentials answer 407 (Proxy-Authenticate), as a paid proxy does. */
  credentials?: { username: string; password: string };
}

export interface ProxiedRequest {
  method: string;
  /** The absolute URL the client asked for. */
  url: string;
  /** Whether the request carried the right Proxy-Authorization (always true without `credentials`). */
  authorized: boolean;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT`, for `proxy.server`. */
  url: string;
  port: number;
  /** Every request that reached the proxy, in arrival order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Plain-HTTP forwarding only (absolute-form request lines); CONNECT is refused with 405, which is enough for http://
 * URLs. A host it does not know (and that is not loopback) answers 502, so nothing ever leaves the machine.
 */
export async function startForwardProxy(options: ForwardProxyOptions): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const expected =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`;

  function forward(req: IncomingMessage, res: ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      // An origin-form request line: someone used the proxy as a web server.
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('forward proxy: absolute URL expected');
      return;
    }
    const authorized = expected === undefined || req.headers['proxy-authorization'] === expected;
    requests.push({ method: req.method ?? 'GET', url: target.href, authorized });
    if (!authorized) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="fixture-proxy"', 'Content-Type': 'text/plain' }).end('proxy authentication required');
      return;
    }
    // Loopback is forwarded as it is (Playwright sends even 127.0.0.1 through a session's proxy); nothing else leaves.
    const origin = options.hosts[target.hostname] ?? (LOOPBACK.has(target.hostname) ? target.origin : undefined);
    if (origin === undefined) {
      res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`forward proxy: unknown host ${target.hostname}`);
      return;
    }
    const upstream = new URL(`${target.pathname}${target.search}`, origin);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const outgoing = httpRequest(upstream, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-forwarded-by': 'fixture-proxy' });
      answer.pipe(res);
    });
    outgoing.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end('forward proxy: upstream failed');
    });
    req.pipe(outgoing);
  }

  const local = await startLocalServer(forward);
  local.server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n');
  });
  return { url: local.url, port: local.port, requests, close: local.close };
}
