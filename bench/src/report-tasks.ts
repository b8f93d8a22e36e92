// The tokens-per-task part of BENCHMARKS.md: what each server's tool list, calls and answers bill a model for six tasks, and the ratios.
import type { TaskSystem, TaskSystemName, TasksResult } from './tasks/run.js';

type Line = (text?: string) => void;

const LABEL: Record<TaskSystemName, string> = {
  pw: '@playwright/mcp',
  sw: 'sessionwright (default profile)',
  swPlaywright: 'sessionwright `--profile playwright`',
};

export interface TaskTotals {
  calls: number;
  turns: number;
  resultChars: number;
  billed: number;
  billedCached: number;
  verified: number;
}

export function taskTotals(system: TaskSystem): TaskTotals {
  const sum = (pick: (run: TaskSystem['tasks'][number]) => number) => system.tasks.reduce((a, run) => a + pick(run), 0);
  return {
    calls: sum((r) => r.calls),
    turns: sum((r) => r.turns),
    resultChars: sum((r) => r.resultChars),
    billed: sum((r) => r.billed),
    billedCached: sum((r) => r.billedCached),
    verified: sum((r) => (r.verified ? 1 : 0)),
  };
}

/** The targets of the section: ours ÷ @playwright/mcp's, billed input over all tasks, with and without the list cached. */
export function taskTargets(result: TasksResult, add: (what: string, ours: number, theirs: number, limit: number, unit: (v: number) => string) => void): void {
  const totals = (name: TaskSystemName) => {
    const system = result.systems.find((s) => s.system === name);
    // A server that did not finish every task has no figure to compare.
    return system?.tasks.every((run) => run.verified) ? taskTotals(system) : undefined;
  };
  const theirs = totals('pw');
  if (!theirs) return;
  const chars = (v: number) => `${Math.round(v)} chars`;
  for (const [name, limit, limitCached] of [
    ['sw', 0.5, 0.6],
    ['swPlaywright', 1.0, 1.0],
  ] as const) {
    const ours = totals(name);
    if (!ours) continue;
    add(`six tasks: billed input, ${LABEL[name]} vs @playwright/mcp`, ours.billed, theirs.billed, limit, chars);
    add(`six tasks: billed input with the tool list cached, ${LABEL[name]} vs @playwright/mcp`, ours.billedCached, theirs.billedCached, limitCached, chars);
  }
}

const ratio = (ours: number, theirs: number | undefined) => (theirs && Number.isFinite(ours / theirs) ? `${(ours / theirs).toFixed(2)}×` : '–');

export function renderTasks(result: TasksResult, line: Line): void {
  const pw = result.systems.find((s) => s.system === 'pw');
  line('## What a task costs');
  line();
  line(
    `A scripted agent (no model) does six tasks on a site of its own served on 127.0.0.1 (\`bench/src/site/\`), measured ${result.date.slice(0, 16).replace('T', ' ')} UTC. ` +
      "On each server it makes that server's most economical correct calls, knowing only what a model would: the task's words (from which it writes " +
      '`role=`/`text=` selectors), and what earlier answers said (refs, link targets, text a `find` read); it looks with `find` where a model would have to look. ' +
      "After each task the bench asks the site's server what happened (the cart, the account created, the setting saved, the order approved, the pages read) " +
      'and checks the answer the agent gave (authors, reading times, prices). A turn is one call, plus one last turn per task that answers the user. ' +
      "**Billed input** sums over a task's turns what the model is sent: the tool list, the task's text, and every earlier call (its tool name and arguments' JSON) and answer (all its text) of that task. " +
      `**With the list cached**, the tool list is billed in full on a task's first turn and at ${result.cachedListFactor}× on the later ones, as prompt caches bill cached reads; everything else in full. ` +
      'Characters throughout (about 4 to a token).',
  );
  line();
  line(
    '| server | tool list | tasks verified | calls | turns | result characters | billed input | vs @playwright/mcp | billed, list cached | vs @playwright/mcp |',
  );
  line('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const theirs = pw ? taskTotals(pw) : undefined;
  for (const system of result.systems) {
    const t = taskTotals(system);
    line(
      `| ${LABEL[system.system]} | ${system.listChars} (${system.tools} tools) | ${t.verified}/${system.tasks.length} | ${t.calls} | ${t.turns} | ${t.resultChars} | ${t.billed} | ${ratio(t.billed, theirs?.billed)} | ${t.billedCached} | ${ratio(t.billedCached, theirs?.billedCached)} |`,
    );
  }
  line();
  line('Per task: calls / turns, result characters, billed input (ratio to @playwright/mcp), billed with the list cached (ratio).');
  line();
  line(`| task | ${result.systems.map((s) => LABEL[s.system]).join(' | ')} |`);
  line(`|---|${result.systems.map(() => '---').join('|')}|`);
  for (const [index, first] of (pw ?? result.systems[0])?.tasks.entries() ?? []) {
    const cells = result.systems.map((system) => {
      const run = system.tasks[index];
      const base = pw?.tasks[index];
      if (!run) return '–';
      const failed = run.verified ? '' : ' **not done**';
      return `${run.calls} / ${run.turns}, ${run.resultChars}; ${run.billed} (${ratio(run.billed, base?.billed)}); ${run.billedCached} (${ratio(run.billedCached, base?.billedCached)})${failed}`;
    });
    line(`| ${first.task} | ${cells.join(' | ')} |`);
  }
  line();
  line('Where the characters go: per tool, calls and the characters of their arguments and answers over all six tasks.');
  line();
  line('| server | tool: calls, argument characters, answer characters |');
  line('|---|---|');
  for (const system of result.systems) {
    const byTool = new Map<string, { calls: number; args: number; result: number }>();
    for (const call of system.tasks.flatMap((run) => run.log)) {
      const entry = byTool.get(call.tool) ?? { calls: 0, args: 0, result: 0 };
      byTool.set(call.tool, { calls: entry.calls + 1, args: entry.args + call.argsChars, result: entry.result + call.resultChars });
    }
    line(`| ${LABEL[system.system]} | ${[...byTool].map(([tool, e]) => `\`${tool}\`: ${e.calls}, ${e.args}, ${e.result}`).join('; ')} |`);
  }
  line();
}
