// Tool calls that ask the user something in the 2026-07-28 era, where a server sends no request of its own: the call answers input_required and waits here, parked, for the client's retry that carries the answer.
import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { Logger } from '@sessionwright/session-core';
import type { ToolContext } from '@sessionwright/tools';

/** How long a client may take to ask its user whether to open a link, before the call goes on without the answer. */
export const USER_ANSWER_MS = 120_000;

/** The request a call is served on now: its cancellation, progress notifications and log. */
export interface Leg {
  signal: AbortSignal;
  progress: ToolContext['progress'];
  logger: Logger;
}

/** What a parked call's tool sees: the parts of its context that follow whichever request serves it, and the question it may ask. */
type ParkedContext = Pick<ToolContext, 'signal' | 'progress' | 'logger'> & Required<Pick<ToolContext, 'elicitUrl'>>;

type Answer = Awaited<ReturnType<NonNullable<ToolContext['elicitUrl']>>>;

/** The one question a call asks: a URL for the user to open. */
interface Question {
  message: string;
  url: string;
  answer(value: Answer): void;
  fail(error: Error): void;
}

interface Parked {
  readonly id: string;
  readonly identity: string;
  readonly tool: string;
  readonly stop: AbortController;
  leg: Leg | undefined;
  detach: () => void;
  question: Question | undefined;
  /** Wakes the request waiting on the call when it asks. */
  wake: (() => void) | undefined;
  done: Promise<CallToolResult> | undefined;
  expiry: NodeJS.Timeout | undefined;
}

/** The key of the question in inputRequests and inputResponses. */
const QUESTION_KEY = 'open_url';

/**
 * The calls of every caller that wait for a retry, by the requestState they answered with: an unguessable id, honoured
 * only for the caller (identity) and tool that made it, and only until USER_ANSWER_MS has passed.
 */
export class ParkedCalls {
  private readonly calls = new Map<string, Parked>();
  private readonly stderr: Logger;

  constructor(stderr: Logger) {
    this.stderr = stderr;
  }

  /**
   * Runs a tool call whose client can open a URL for its user. `run` gets a context whose signal, progress and log follow
   * whichever request serves the call; when the tool asks (elicitUrl), this request answers input_required and the call
   * waits for the retry (resume). Answers the call's result, or input_required.
   */
  start(identity: string, tool: string, leg: Leg, run: (ctx: ParkedContext) => Promise<CallToolResult>): Promise<CallToolResult | InputRequiredResult> {
    const parked: Parked = {
      id: randomUUID(),
      identity,
      tool,
      stop: new AbortController(),
      leg: undefined,
      detach: () => {},
      question: undefined,
      wake: undefined,
      done: undefined,
      expiry: undefined,
    };
    parked.done = run({
      signal: parked.stop.signal,
      progress: (...args) => parked.leg?.progress(...args),
      logger: {
        info: (message) => (parked.leg?.logger ?? this.stderr).info(message),
        warn: (message) => (parked.leg?.logger ?? this.stderr).warn(message),
        debug: (message) => (parked.leg?.logger ?? this.stderr).debug(message),
      },
      elicitUrl: ({ message, url }) =>
        new Promise<Answer>((answer, fail) => {
          parked.question = { message, url, answer, fail };
          parked.wake?.();
        }),
    });
    return this.serve(parked, leg);
  }

  /**
   * Serves the retry of a parked call: hands the client's answer to the call and waits for it again. Undefined when no
   * call waits under `state` for this caller and tool (an unknown id, one that expired, another caller's).
   */
  resume(
    identity: string,
    tool: string,
    state: string,
    responses: Record<string, unknown> | undefined,
    leg: Leg,
  ): Promise<CallToolResult | InputRequiredResult> | undefined {
    const parked = this.calls.get(state);
    if (parked === undefined || parked.identity !== identity || parked.tool !== tool) return undefined;
    this.calls.delete(state);
    clearTimeout(parked.expiry);
    const { question } = parked;
    const response = inputResponse(responses, QUESTION_KEY);
    // A retry without the answer is asked the same question again (serve sees it still open).
    if (question !== undefined && response.kind === 'elicit') {
      parked.question = undefined;
      question.answer({ action: response.action, complete: () => {} });
    }
    return this.serve(parked, leg);
  }

  /** Waits, on this request, for the call to end or to ask; an ask parks the call until its retry or USER_ANSWER_MS. */
  private async serve(parked: Parked, leg: Leg): Promise<CallToolResult | InputRequiredResult> {
    this.attach(parked, leg);
    const asked = new Promise<'asked'>((resolve) => {
      parked.wake = () => resolve('asked');
      if (parked.question !== undefined) resolve('asked');
    });
    const outcome = await Promise.race([parked.done as Promise<CallToolResult>, asked]);
    parked.wake = undefined;
    parked.detach();
    const question = parked.question;
    if (outcome !== 'asked' || question === undefined) return outcome as CallToolResult;
    this.calls.set(parked.id, parked);
    parked.expiry = setTimeout(() => {
      this.calls.delete(parked.id);
      // The tool goes on without the answer (request_human then answers with the link in its result, for nobody).
      question.fail(new Error(`no answer within ${USER_ANSWER_MS} ms`));
    }, USER_ANSWER_MS);
    parked.expiry.unref();
    return inputRequired({
      inputRequests: { [QUESTION_KEY]: inputRequired.elicitUrl({ message: question.message, url: question.url }) },
      requestState: parked.id,
    });
  }

  /** The call follows this request: its cancellation stops the call, its progress and log reach this request's client. */
  private attach(parked: Parked, leg: Leg): void {
    parked.leg = leg;
    const stop = () => parked.stop.abort(leg.signal.reason);
    if (leg.signal.aborted) stop();
    leg.signal.addEventListener('abort', stop, { once: true });
    parked.detach = () => {
      leg.signal.removeEventListener('abort', stop);
      if (parked.leg === leg) parked.leg = undefined;
    };
  }
}
