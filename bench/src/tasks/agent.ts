// Carries out the scripted agent's steps on one server with that server's most economical calls, recording each call as the model would be billed for it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { timedCall } from '../systems.js';
import type { CallRecord } from './billing.js';
import { isRef, type Step } from './steps.js';

export interface Agent {
  /** Carries out steps that need nothing from each other's answers; answers the text of every find among them, in order. */
  run(steps: Step[]): Promise<string[]>;
  /** The page the last answer named, to resolve the links a find reads. */
  readonly url: string;
  /** Starts a new task: a new record of calls (and, where the server has sessions, a new session). */
  begin(): CallRecord[];
  end(): Promise<void>;
}

/** Calls tools on one client and records what each call and answer would cost a model. */
class Recorder {
  calls: CallRecord[] = [];
  url = '';
  constructor(private readonly client: Client) {}

  async call(tool: string, args: Record<string, unknown>, record = true): Promise<string> {
    const { text } = await timedCall(this.client, tool, args);
    if (record) this.calls.push({ tool, argsChars: tool.length + JSON.stringify(args).length, resultChars: text.length });
    const url = /^- Page URL: (\S+)$/m.exec(text)?.[1] ?? (text.startsWith('{') ? (JSON.parse(text) as { url?: unknown }).url : undefined);
    if (typeof url === 'string') this.url = url;
    return text;
  }
}

/** @playwright/mcp, and sessionwright's playwright profile that answers to the same calls: one `browser_*` call per step. */
export function playwrightStyleAgent(client: Client): Agent {
  const recorder = new Recorder(client);
  const call = (step: Step): [string, Record<string, unknown>] => {
    switch (step.tool) {
      case 'navigate':
        return ['browser_navigate', { url: step.url }];
      case 'find':
        return ['browser_find', { text: step.text }];
      case 'findRegex':
        return ['browser_find', { regex: step.regex }];
      case 'click':
        return ['browser_click', { target: step.target }];
      case 'type':
        return ['browser_type', { target: step.target, text: step.text, ...(step.submit ? { submit: true } : {}) }];
      case 'fill':
        return ['browser_fill_form', { fields: step.fields.map((f) => ({ target: f.target, name: f.name, type: f.type, value: String(f.value) })) }];
    }
  };
  return {
    async run(steps) {
      const finds: string[] = [];
      for (const step of steps) {
        const text = await recorder.call(...call(step));
        if (step.tool === 'find' || step.tool === 'findRegex') finds.push(text);
      }
      return finds;
    },
    get url() {
      return recorder.url;
    },
    begin() {
      recorder.calls = [];
      return recorder.calls;
    },
    async end() {},
  };
}

/** sessionwright's default tools, with the step's element as `ref` or `selector`. */
function defaultToolCall(step: Step): [string, Record<string, unknown>] {
  const element = (target: string) => (isRef(target) ? { ref: target } : { selector: target });
  switch (step.tool) {
    case 'navigate':
      return ['navigate', { url: step.url }];
    case 'find':
      return ['find', { text: step.text }];
    case 'findRegex':
      return ['find', { regex: step.regex }];
    case 'click':
      return ['click', element(step.target)];
    case 'type':
      return ['type', { ...element(step.target), text: step.text, ...(step.submit ? { submit: true } : {}) }];
    case 'fill':
      return ['fill_form', { fields: step.fields.map((f) => ({ ...element(f.target), value: f.value })) }];
  }
}

const isFind = (step: Step) => step.tool === 'find' || step.tool === 'findRegex';

/**
 * sessionwright's default profile: a task's first page opens with `create_session {url}`, and steps that need nothing from
 * each other go in one `run_steps` call, the finds among them returned. Where the server lacks either, one call per step.
 */
export function defaultProfileAgent(client: Client, tools: Tool[]): Agent {
  const recorder = new Recorder(client);
  const opensUrl = tools.some((tool) => tool.name === 'create_session' && 'url' in (tool.inputSchema.properties ?? {}));
  const batches = tools.some((tool) => tool.name === 'run_steps');
  let sessionId: string | undefined;

  async function open(steps: Step[]): Promise<Step[]> {
    const [first, ...rest] = steps;
    const url = first?.tool === 'navigate' ? first.url : undefined;
    const created = await recorder.call('create_session', opensUrl && url ? { url } : {});
    sessionId = String((JSON.parse(created) as { sessionId: unknown }).sessionId);
    return opensUrl && url ? rest : steps;
  }

  return {
    async run(given) {
      const steps = sessionId === undefined ? await open(given) : given;
      if (steps.length === 0) return [];
      if (steps.length === 1 || !batches) {
        const finds: string[] = [];
        for (const step of steps) {
          const [tool, args] = defaultToolCall(step);
          const text = await recorder.call(tool, { sessionId, ...args });
          if (isFind(step)) finds.push(text);
        }
        return finds;
      }
      const batch = steps.map((step) => {
        const [tool, args] = defaultToolCall(step);
        return { tool, args, ...(isFind(step) ? { return: true } : {}) };
      });
      const answer = JSON.parse(await recorder.call('run_steps', { sessionId, steps: batch })) as {
        results: { step: number; tool: string }[];
        failed?: unknown;
      };
      if (answer.failed) throw new Error(`run_steps failed: ${JSON.stringify(answer.failed)}`);
      return answer.results.filter((result) => isFind(steps[result.step] as Step)).map((result) => JSON.stringify(result));
    },
    get url() {
      return recorder.url;
    },
    begin() {
      recorder.calls = [];
      return recorder.calls;
    },
    async end() {
      // Not billed: a model would leave the session to expire; the bench closes it to free the browser for the next task.
      if (sessionId !== undefined) await recorder.call('close_session', { sessionId }, false);
      sessionId = undefined;
    },
  };
}
