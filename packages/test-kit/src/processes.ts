// Linux /proc helpers for tests that check browser processes start, stay bounded in memory, and go away.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The kernel's short name (at most 15 characters), e.g. `chromium`, `headless_shell`. */
  comm: string;
  /** The full command line, arguments joined with single spaces. */
  cmdline: string;
}

interface Stat {
  pid: number;
  ppid: number;
  comm: string;
  state: string;
}

/** Parses /proc/PID/stat; comm sits in parentheses and may itself contain spaces or parentheses. */
function parseStat(text: string): Stat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const [state, ppid] = text.slice(close + 2).split(' ');
  if (state === undefined || ppid === undefined) return undefined;
  return { pid: Number(text.slice(0, open)), ppid: Number(ppid), comm: text.slice(open + 1, close), state };
}

/** Reads a /proc file, or returns undefined when the process is gone or unreadable (they vanish mid-scan). */
async function readProcFile(pid: number, name: string): Promise<string | undefined> {
  try {
    return await readFile(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * All live descendants of `pid`, recursively (not `pid` itself). Zombies are left out: they are dead,
 * only not yet reaped. Processes whose parent died are re-parented (to init or a subreaper) and so
 * drop out of this tree — to check that a killed server's browser went away, collect the pids
 * before the kill and then poll `isAlive` on each.
 */
export async function descendants(pid: number): Promise<ProcInfo[]> {
  const entries = await readdir('/proc');
  const stats = await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const text = await readProcFile(Number(e), 'stat');
        return text === undefined ? undefined : parseStat(text);
      }),
  );
  const children = new Map<number, Stat[]>();
  for (const stat of stats) {
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X') continue;
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(stat);
    children.set(stat.ppid, siblings);
  }
  const found: Stat[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return Promise.all(
    found.map(async ({ pid, ppid, comm }) => {
      const raw = (await readProcFile(pid, 'cmdline')) ?? '';
      return { pid, ppid, comm, cmdline: raw.split('\0').filter(Boolean).join(' ') };
    }),
  );
}

/** True while the process exists and is not a zombie (a zombie still answers `kill(pid, 0)`). */
export function isAlive(pid: number): boolean {
  try {
    const stat = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
  } catch {
    return false;
  }
}

/** Wakes and kills each process (SIGCONT, then SIGKILL), passing over those already gone: the cleanup after a test that stopped one. */
export function forceKill(pids: Iterable<number>): void {
  for (const pid of pids) {
    for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone, as the test expects.
      }
    }
  }
}

const BROWSER = /chrom(e|ium)|headless_shell|firefox|webkit/i;

/**
 * Descendants of `rootPid` that belong to a browser. Matches comm or the executable (first argument),
 * not the whole command line, so a server started with `--browser chromium` is not counted;
 * the executable catches Firefox children, whose comm is a thread name such as `Web Content`.
 */
export async function browserProcesses(rootPid: number): Promise<ProcInfo[]> {
  return (await descendants(rootPid)).filter((p) => BROWSER.test(p.comm) || BROWSER.test(p.cmdline.split(' ')[0] ?? ''));
}

/** The browsers a process drives over a pipe, as Playwright launches them: its own children started with that switch. */
export async function pipeBrowsers(parentPid: number): Promise<ProcInfo[]> {
  return (await descendants(parentPid)).filter((p) => p.ppid === parentPid && p.cmdline.includes('--remote-debugging-pipe'));
}

/** Proportional set size in bytes (shared pages split among sharers), or 0 when unreadable. */
export async function pss(pid: number): Promise<number> {
  const text = await readProcFile(pid, 'smaps_rollup');
  const kb = text?.match(/^Pss:\s+(\d+) kB/m)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/** PSS of `pid` plus all its descendants, in bytes; PSS (not RSS) so shared pages are not counted twice. */
export async function treePss(pid: number): Promise<number> {
  const pids = [pid, ...(await descendants(pid)).map((p) => p.pid)];
  const sizes = await Promise.all(pids.map(pss));
  return sizes.reduce((a, b) => a + b, 0);
}

/** Polls `cond` until it returns true; rejects once `timeout` ms pass without that. Checks at least once. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  { timeout = 5000, interval = 50 }: { timeout?: number; interval?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await cond()) return;
    if (Date.now() >= deadline) throw new Error(`waitFor: condition still false after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
