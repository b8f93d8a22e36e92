// Fixture routes for the agent tools: downloads with chosen file names, JSON and binary API answers, a large body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from './local-server.js';

/** The body of `/api/large`: 250 000 characters, more than a request body tool should return. */
export const LARGE_BODY_LENGTH = 250_000;

/**
 * Handles the agent-tool routes; false when `path` is none of them.
 * - `/download?name=N&bytes=K`: an attachment named N (any text, even "../x") of K bytes (default 64), answered after 50 ms.
 * - `/download/endless`: an attachment that never ends, sent as fast as the browser takes it.
 * - `/api/json?tag=T`: `{"ok":true,"tag":T}`. POST `/api/echo`: the request body back as text/plain.
 * - `/api/binary`: 256 bytes of application/octet-stream. `/api/large`: LARGE_BODY_LENGTH characters of text/plain.
 * - `/api/status/CODE`: an empty JSON answer with that status (200–599). `/api/headers`: the request's headers as JSON.
 */
export function agentRoutes(): (req: IncomingMessage, res: ServerResponse, url: URL, body: () => Promise<string>) => boolean {
  return (req, res, url, body) => {
    const path = url.pathname;
    if (path === '/download/endless') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="endless.bin"' });
      const chunk = Buffer.alloc(1 << 20, 'e');
      const pour = () => {
        while (!res.destroyed && res.write(chunk)) {}
      };
      res.on('drain', pour);
      pour();
      return true;
    }
    if (path === '/download') {
      const name = url.searchParams.get('name') ?? 'file.txt';
      const bytes = Math.min(10_000_000, Math.max(0, Number(url.searchParams.get('bytes') ?? 64) || 0));
      const timer = setTimeout(() => {
        res.writeHead(200, {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
          'Content-Length': String(bytes),
        });
        res.end(Buffer.alloc(bytes, 'x'));
      }, 50);
      res.on('close', () => clearTimeout(timer));
      return true;
    }
    if (path === '/api/headers') {
      send(res, 200, JSON.stringify(req.headers), 'application/json');
      return true;
    }
    if (path === '/api/json') {
      send(res, 200, JSON.stringify({ ok: true, tag: url.searchParams.get('tag') ?? '' }), 'application/json');
      return true;
    }
    if (path === '/api/echo' && req.method === 'POST') {
      void body().then((text) => send(res, 200, text, 'text/plain; charset=utf-8'));
      return true;
    }
    if (path === '/api/binary') {
      send(res, 200, Buffer.from(Array.from({ length: 256 }, (_, i) => i)), 'application/octet-stream');
      return true;
    }
    if (path === '/api/large') {
      send(res, 200, 'y'.repeat(LARGE_BODY_LENGTH), 'text/plain; charset=utf-8');
      return true;
    }
    if (path.startsWith('/api/status/')) {
      const code = Number(path.slice('/api/status/'.length));
      if (!Number.isInteger(code) || code < 200 || code > 599) return false;
      send(res, code, '{}', 'application/json');
      return true;
    }
    return false;
  };
}
