// The browser processes this process launched: how to recognise one (its pipe switch), find them, and kill one with its children.
import { readFileSync, readdirSync } from 'node:fs';

/** The switch each engine's browser gets when Playwright drives it over a pipe (fds 3 and 4), as it does every browser it launches. */
const PIPE_SWITCHES: readonly string[] = ['--remote-debugging-pipe', '-juggler-pipe', '--inspector-pipe'];

/** True for the command line (its arguments) of a browser driven over a pipe: what Playwright spawns to launch one. */
export function isPipeBrowserCommand(args: readonly string[]): boolean {
  return args.some((arg) => PIPE_SWITCHES.includes(arg));
}

/**
 * Pids of this process's children that are browsers driven over a pipe (Linux; elsewhere none). Playwright gives no
 * public handle on a launched browser's process, so a launcher notes the new ones around each launch.
 */
export function browserChildren(): number[] {
  if (process.platform !== 'linux') return [];
  return childPids().filter((pid) => {
    try {
      return isPipeBrowserCommand(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      // The process ended while we looked.
      return false;
    }
  });
}

/**
 * SIGKILL to the process group `pid` leads (a browser launched detached, as Playwright and the CLI's early browser start
 * it, leads one with its renderers), else to the process alone. Does nothing for a process that is gone.
 */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * This process's children: listed per thread by the kernel where it can (a few small reads), else found by reading
 * every process's parent, a read of every process on the way to the first session.
 */
function childPids(): number[] {
  try {
    return safeReaddir('/proc/self/task').flatMap((thread) =>
      readFileSync(`/proc/self/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    // A kernel without CONFIG_PROC_CHILDREN.
  }
  const found: number[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
