// The one replica-to-replica protocol: an MCP HTTP request relayed whole to the replica that serves it (its answer, a stream too, passed back), the client's credentials replaced by a signed envelope.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type Logger, browserError } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { CallerScope } from '../identity/session-access.js';
import { liveLinkBase } from '../live-view/live-views.js';
import type { AskUser, CallLegs, OnProgress } from './restored.js';
import { RELAY_ENVELOPE_HEADER, RELAY_SIGNATURE_HEADER, type Envelope, type RelaySignature } from './relay-signature.js';

/** The MCP endpoint every relayed request goes to (or its legacy messages path). */
export const RELAY_MCP_PATH = '/mcp';
/** The revision a call relayed by the fleet itself speaks: self-contained requests, nothing to initialize. */
const RELAY_PROTOCOL_VERSION = '2026-07-28';

/**
 * Headers a relay never passes on: the hop's own, the fleet's (a client cannot present them), and the client's
 * credentials, which stay at the replica the client reached (the envelope says who calls).
 */
export const NOT_RELAYED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'authorization',
  'proxy-authorization',
  'cookie',
  RELAY_SIGNATURE_HEADER,
  RELAY_ENVELOPE_HEADER,
]);
/** A relayed MCP request is sent with a body of its own, to the other replica's address. */
const NOT_PASSED = new Set([...NOT_RELAYED, 'host', 'content-length']);

/**
 * What became of a relayed request: `answered` (the answer went to the client), `gone` (no connection to the replica:
 * only this says it may be dead), or `refused` (it answered, but not the request: stopping, or another key).
 */
export type RelayOutcome = { kind: 'answered' } | { kind: 'gone' } | { kind: 'refused'; status: number };

/** How many questions a relayed call may ask its client before it is given up (a tool of this server asks one). */
const MAX_INPUT_ROUNDS = 4;
/** How long the "cancel" of a call given up while its user was asked may take to reach the replica that parked it. */
const CANCEL_RETRY_MS = 10_000;

/** A tool call's outcome at another replica: its result, or why there is none. */
export type RemoteCall = { kind: 'result'; result: CallToolResult } | { kind: 'gone' } | { kind: 'refused'; status: number };

export class Relay {
  private nextId = 1;
  /**
   * Connections kept open between calls relayed whole (a call's request and answer, then the socket is free again),
   * so a relayed call costs no new connection; a stream (a GET, a legacy message) gets a socket of its own.
   */
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  constructor(private readonly init: { signature: RelaySignature; logger: Logger }) {}

  /**
   * Relays a client's request to `destination` (its advertise URL) at `path`, and the answer back to `res`: piped as it
   * comes, or, `whole`, only once complete and 200 (a replica that stops mid-answer leaves the call to this one).
   */
  pass(
    destination: string,
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: string | undefined,
    envelope: Envelope,
    whole: boolean,
  ): Promise<RelayOutcome> {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !NOT_PASSED.has(name)) headers[name] = value;
    const method = req.method ?? 'GET';
    const target = new URL(path, destination);
    // Signed as the receiver reads it (its request line), whatever the URL parser normalised.
    Object.assign(headers, this.init.signature.sign({ method, path: `${target.pathname}${target.search}`, destination, body: body ?? '' }, envelope));
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    if (payload !== undefined) headers['content-length'] = String(payload.length);
    return new Promise<RelayOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: RelayOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const outgoing = send(target, method, headers, whole ? this.agents : undefined, (answer) => {
        const status = answer.statusCode ?? 502;
        if (status === 503 || status === 403) {
          answer.resume();
          if (status === 403) this.init.logger.warn(`a replica of the fleet refused a relayed request (HTTP 403): is it started with another store key?`);
          return settle({ kind: 'refused', status });
        }
        if (whole) {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            if (status !== 200 || !answer.complete) return settle({ kind: 'refused', status });
            res.writeHead(200, answer.headers);
            res.end(Buffer.concat(chunks));
            settle({ kind: 'answered' });
          });
          answer.on('error', () => settle({ kind: 'refused', status }));
          answer.on('aborted', () => settle({ kind: 'refused', status }));
          return;
        }
        res.writeHead(status, answer.headers);
        answer.pipe(res);
        answer.on('end', () => settle({ kind: 'answered' }));
        answer.on('error', () => settle({ kind: 'answered' }));
      });
      outgoing.on('error', (error) => {
        this.init.logger.debug(`relay to ${hostOf(destination)} failed: ${messageOf(error)}`);
        settle(res.headersSent ? { kind: 'answered' } : { kind: 'gone' });
      });
      // The client went away: so does the relayed request (a GET stream, a call it cancelled). An answer sent in full
      // leaves the connection to its agent, for the next call.
      res.on('close', () => {
        if (!res.writableFinished) outgoing.destroy();
        settle({ kind: 'answered' });
      });
      outgoing.end(payload);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * Runs a tool call at another replica, as a 2026-07-28 tools/call request carrying `envelope`: its result, or why
   * there is none. With `ask`, the call's client can be asked to open a link for its user: the other replica's
   * input-required answer is asked of it through `ask`, and the call retried there with the answer (its question and
   * the retry are one round, as a 2026-07-28 client makes it); a replica that asks past MAX_INPUT_ROUNDS is given up
   * (BROWSER_ERROR). The caller decides what `gone` and `refused` mean.
   */
  async call(destination: string, envelope: Envelope, tool: string, args: unknown, signal: AbortSignal, legs: CallLegs = {}): Promise<RemoteCall> {
    const { ask } = legs;
    /** The answers the user accepted: each is told once the call is over (the person is done). */
    const accepted: (() => void)[] = [];
    try {
      let retry: Retry | undefined;
      for (let round = 0; ; round += 1) {
        const answer = await this.callOnce(destination, envelope, { tool, args, signal, legs, retry });
        if (answer.kind !== 'input') return answer;
        if (ask === undefined || round >= MAX_INPUT_ROUNDS) {
          throw browserError('unknown', 'The replica that holds the session asked its client more than it can be asked. Try the call again.', {
            details: { browserMessage: `input required after ${round + 1} round(s) of a relayed ${tool} call` },
          });
        }
        retry = { requestState: answer.requestState, inputResponses: await this.askUser(answer.inputRequests, ask, signal, accepted) };
        if (signal.aborted) {
          // The caller gave up while its user was asked: the other replica hears "cancel", so the call it parked ends
          // (request_human takes control back from the person) instead of waiting for a retry that never comes.
          const cancelled = { tool, args, signal: AbortSignal.timeout(CANCEL_RETRY_MS), legs: {}, retry };
          void this.callOnce(destination, envelope, cancelled).catch(() => {});
          throw signal.reason;
        }
      }
    } finally {
      for (const complete of accepted) complete();
    }
  }

  /**
   * The client's answer to each question a remote call asks: a link to open (URL-mode elicitation) is asked through
   * `ask`; anything else, or a question that cannot be put to the client (it failed, or the call was cancelled), is
   * answered `cancel`, which the asking tool takes as the user saying no.
   */
  private async askUser(
    requests: Record<string, unknown>,
    ask: AskUser,
    signal: AbortSignal,
    accepted: (() => void)[],
  ): Promise<Record<string, { action: string }>> {
    const responses: Record<string, { action: string }> = {};
    for (const [key, request] of Object.entries(requests)) {
      const { method, params } = (request ?? {}) as { method?: unknown; params?: { mode?: unknown; message?: unknown; url?: unknown } };
      let action = 'cancel';
      if (
        !signal.aborted &&
        method === 'elicitation/create' &&
        params?.mode === 'url' &&
        typeof params.message === 'string' &&
        typeof params.url === 'string'
      ) {
        try {
          const answer = await ask({ message: params.message, url: params.url });
          action = answer.action;
          if (action === 'accept') accepted.push(answer.complete);
        } catch (error) {
          this.init.logger.debug(`a relayed call's question could not be put to its client: ${messageOf(error)}`);
        }
      }
      responses[key] = { action };
    }
    return responses;
  }

  /** One request of a relayed call (its first, or a retry carrying the client's answers): its result, its question, or why there is none. */
  private async callOnce(
    destination: string,
    envelope: Envelope,
    call: { tool: string; args: unknown; signal: AbortSignal; legs: CallLegs; retry: Retry | undefined },
  ): Promise<RemoteCall | InputRound> {
    const { tool, args, signal, legs, retry } = call;
    const id = this.nextId++;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args ?? {},
        ...(retry ?? {}),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': RELAY_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'sessionwright-fleet', version: '1' },
          // What the caller's client can be asked (through this replica): a link to open for its user, or nothing.
          'io.modelcontextprotocol/clientCapabilities': legs.ask === undefined ? {} : { elicitation: { url: {} } },
          ...(legs.onProgress === undefined ? {} : { progressToken: id }),
        },
      },
    });
    const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
    const headers = (): Record<string, string> => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': RELAY_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
      ...(typeof sessionId === 'string' ? { 'mcp-param-session-id': sessionId } : {}),
      ...this.init.signature.sign({ method: 'POST', path: RELAY_MCP_PATH, destination, body }, envelope),
    });
    // Tried twice (each signed anew) before the replica counts as gone: a kept-alive socket the other end closed as it
    // was reused fails a request without saying anything about the replica.
    let response: Response | undefined;
    for (let attempt = 1; response === undefined; attempt += 1) {
      try {
        response = await fetch(new URL(RELAY_MCP_PATH, destination), { method: 'POST', headers: headers(), body, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        this.init.logger.debug(`replica ${hostOf(destination)} unreachable: ${messageOf(error)}`);
        if (attempt === 2) return { kind: 'gone' };
      }
    }
    const result = response.status === 200 ? await readResult(response, id, legs.onProgress).catch(() => undefined) : undefined;
    if (response.status !== 200) await response.body?.cancel().catch(() => {});
    if (isInputRound(result)) return { kind: 'input', inputRequests: result.inputRequests ?? {}, requestState: result.requestState };
    if (result === undefined || !Array.isArray(result.content)) {
      if (response.status === 403) this.init.logger.warn(`a replica of the fleet refused a relayed call (HTTP 403): is it started with another store key?`);
      else this.init.logger.debug(`a replica of the fleet answered a relayed call with HTTP ${response.status} and no result`);
      return { kind: 'refused', status: response.status };
    }
    return { kind: 'result', result: result as CallToolResult };
  }
}

/** A 2026-07-28 retry's additions: the client's answers, and the state the replica that asked handed out. */
interface Retry {
  inputResponses: Record<string, { action: string }>;
  requestState: string | undefined;
}

/** A remote call that asked its client something (a 2026-07-28 input-required answer). */
interface InputRound {
  kind: 'input';
  inputRequests: Record<string, unknown>;
  requestState: string | undefined;
}

function isInputRound(result: Record<string, unknown> | undefined): result is { inputRequests?: Record<string, unknown>; requestState?: string } {
  if (result?.resultType !== 'input_required') return false;
  const { inputRequests, requestState } = result;
  return (
    (inputRequests === undefined || (typeof inputRequests === 'object' && inputRequests !== null)) &&
    (requestState === undefined || typeof requestState === 'string')
  );
}

/** The envelope of a call relayed for `scope`, `hops` replicas from its client; the live-view links' base comes along. */
export function envelopeOf(scope: CallerScope, hops: number, localOnly = false): Envelope {
  const liveBase = liveLinkBase.getStore();
  return {
    identity: scope.identity,
    guarded: scope.guarded,
    hops,
    ...(scope.stateIdentity === undefined ? {} : { stateIdentity: scope.stateIdentity }),
    ...(liveBase === undefined ? {} : { liveBase }),
    ...(localOnly ? { localOnly } : {}),
  };
}

/**
 * The result object of request `id` in an answer (a tool's result, or its questions for the client): one JSON message,
 * or the messages of an event stream, read as they come (its progress notifications passed on meanwhile).
 */
async function readResult(response: Response, id: number, onProgress: OnProgress | undefined): Promise<Record<string, unknown> | undefined> {
  let answer: unknown;
  const take = (message: unknown) => {
    const { id: of, method, params } = (message ?? {}) as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    if (of === id) answer = message;
    else if (method === 'notifications/progress' && typeof params?.progress === 'number') {
      onProgress?.(
        params.progress,
        typeof params.total === 'number' ? params.total : undefined,
        typeof params.message === 'string' ? params.message : undefined,
      );
    }
  };
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) take(JSON.parse(await response.text()) as unknown);
  else {
    const decoder = new TextDecoder();
    let pending = '';
    const lines = (text: string) => {
      pending += text;
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const line of complete) if (line.startsWith('data:')) take(JSON.parse(line.slice('data:'.length)) as unknown);
    };
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) lines(decoder.decode(read.value, { stream: true }));
    lines(`${decoder.decode()}\n`);
  }
  const result = (answer as { result?: unknown } | undefined)?.result;
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
}

/** An HTTP(S) request: on a kept-alive connection of `agents`, or on a socket of its own. */
export function send(
  target: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  agents: { http: HttpAgent; https: HttpsAgent } | undefined,
  onAnswer: (answer: IncomingMessage) => void,
) {
  if (target.protocol === 'https:') return httpsRequest(target, { method, headers, agent: agents?.https ?? false }, onAnswer);
  return httpRequest(target, { method, headers, agent: agents?.http ?? false }, onAnswer);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(no address)';
  }
}
