// The tokens-per-task section: the six tasks on @playwright/mcp and on both sessionwright profiles, each checked with the site, each billed turn by turn.
import os from 'node:os';
import { toolListCost } from '@sessionwright/test-kit';
import type { BenchContext } from '../context.js';
import { startTaskSite } from '../site/server.js';
import { connectStdio, playwrightMcpArgs, sessionwrightArgs } from '../systems.js';
import { type Agent, defaultProfileAgent, playwrightStyleAgent } from './agent.js';
import { bill, CACHED_LIST_FACTOR, type CallRecord, type TaskBill } from './billing.js';
import { TASKS } from './tasks.js';

export type TaskSystemName = 'pw' | 'sw' | 'swPlaywright';

export interface TaskRun extends TaskBill {
  task: string;
  taskChars: number;
  /** Every call the agent made, in order, with what it cost. */
  log: CallRecord[];
  /** The site confirmed the task was done and the answer right. */
  verified: boolean;
  problem?: string;
}

export interface TaskSystem {
  system: TaskSystemName;
  flags: string[];
  tools: number;
  /** Characters of the tool list the model is sent on every turn. */
  listChars: number;
  tasks: TaskRun[];
}

export interface TasksResult {
  date: string;
  load: number;
  cachedListFactor: number;
  systems: TaskSystem[];
}

const SYSTEMS: { system: TaskSystemName; flags: string[] }[] = [
  { system: 'pw', flags: [] },
  { system: 'sw', flags: [] },
  { system: 'swPlaywright', flags: ['--profile', 'playwright'] },
];

export async function runTasks(ctx: BenchContext): Promise<TasksResult> {
  const load = os.loadavg()[0] ?? Number.NaN;
  const site = await startTaskSite();
  const systems: TaskSystem[] = [];
  try {
    for (const { system, flags } of SYSTEMS) {
      const args = system === 'pw' ? playwrightMcpArgs(ctx.executable, flags) : sessionwrightArgs(ctx.executable, flags);
      const { connection } = await connectStdio(args);
      try {
        const { tools } = await connection.client.listTools();
        const list = toolListCost(tools);
        const agent: Agent = system === 'sw' ? defaultProfileAgent(connection.client, tools) : playwrightStyleAgent(connection.client);
        const runs: TaskRun[] = [];
        for (const task of TASKS) {
          site.reset();
          const text = task.text(site.url);
          const calls = agent.begin();
          let problem: string | undefined;
          try {
            problem = task.verify(site.state, await task.run(agent, site.url));
          } catch (error) {
            problem = error instanceof Error ? error.message : String(error);
          } finally {
            await agent.end().catch(() => {});
          }
          if (problem !== undefined) ctx.error(`tasks.${system}`, new Error(`${task.name}: ${problem}`));
          runs.push({
            task: task.name,
            taskChars: text.length,
            log: [...calls],
            verified: problem === undefined,
            ...(problem ? { problem } : {}),
            ...bill(list.chars, text.length, calls),
          });
          ctx.log(`tasks: ${system} ${task.name}: ${calls.length} calls${problem ? `, FAILED: ${problem.slice(0, 200)}` : ''}`);
        }
        systems.push({ system, flags, tools: list.tools, listChars: list.chars, tasks: runs });
      } finally {
        await connection.close();
      }
    }
  } finally {
    await site.close();
  }
  return { date: new Date().toISOString(), load, cachedListFactor: CACHED_LIST_FACTOR, systems };
}
