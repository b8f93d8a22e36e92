// What a task's turns bill a model as input: on every turn the tool list, the task text and every earlier call and result of the task.

export interface CallRecord {
  tool: string;
  /** Characters of the call as the model writes it: the tool's name and its arguments' JSON. */
  argsChars: number;
  /** Characters of every text item of the result: what the model reads back. */
  resultChars: number;
}

/** After its first turn a task reads the tool list from a prompt cache, billed at this fraction (as prompt caches bill cached reads). */
export const CACHED_LIST_FACTOR = 0.1;

export interface TaskBill {
  calls: number;
  /** The calls plus one final turn that answers the task. */
  turns: number;
  resultChars: number;
  billed: number;
  billedCached: number;
}

export function bill(listChars: number, taskChars: number, calls: readonly CallRecord[]): TaskBill {
  const turns = calls.length + 1;
  let history = 0;
  let billed = 0;
  let billedCached = 0;
  for (let turn = 0; turn < turns; turn += 1) {
    billed += listChars + taskChars + history;
    billedCached += listChars * (turn === 0 ? 1 : CACHED_LIST_FACTOR) + taskChars + history;
    const call = calls[turn];
    if (call) history += call.argsChars + call.resultChars;
  }
  return { calls: calls.length, turns, resultChars: calls.reduce((a, c) => a + c.resultChars, 0), billed, billedCached: Math.round(billedCached) };
}
