// One timer per launched browser: reads the resident memory of its renderer processes, and has its tabs measured only when one grows past the bound.
import { readFileSync, readdirSync } from 'node:fs';
import type { Browser } from 'playwright';
import { systemTimers, type TimerHandle, type Timers } from './clock.js';

/** Resident bytes of each renderer process of a browser's tree, by pid (empty where it cannot be read). */
type ReadProcessMemory = (roots: readonly number[]) => Map<number, number>;

interface MemoryWatchOptions {
  /** The pids the browser started as (its main process); its renderers are found among their descendants. */
  roots: readonly number[];
  /** The bound: a process holding no more than this many bytes resident cannot hold a tab past it. */
  bytes: number;
  /** How often the processes are read, in ms. */
  everyMs: number;
  timers: Timers;
  /** Measures each tab of the browser's sessions against the bound (the tabs' own heaps); never two at once. */
  look: () => Promise<void>;
  /** How the processes are read (tests give their own); by default /proc on Linux. */
  read?: ReadProcessMemory;
}

/**
 * A tab holds its heap and ArrayBuffers in its renderer process, so no tab is past the bound while every renderer of
 * the browser holds less than the bound resident: reading the renderers' sizes (one small read each, in this process;
 * nothing is asked of the browser) tells when a look at the tabs is worth it. After a look, the processes it was for
 * are looked at again only once they have grown by another eighth of the bound, so a large page that stays under the
 * bound costs a look per growth, not one per tick.
 */
export class MemoryWatch {
  private readonly options: MemoryWatchOptions;
  private readonly read: ReadProcessMemory;
  /** Per process looked at: the resident size past which it is looked at again. */
  private readonly nextLook = new Map<number, number>();
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(options: MemoryWatchOptions) {
    this.options = options;
    this.read = options.read ?? readProcessMemory;
  }

  start(): this {
    this.schedule();
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
  }

  /** Reads the processes once and looks at the tabs when one is past its mark; resolves when the look is done. */
  async check(): Promise<void> {
    const sizes = this.read(this.options.roots);
    for (const pid of this.nextLook.keys()) if (!sizes.has(pid)) this.nextLook.delete(pid);
    const grown = [...sizes].filter(([pid, bytes]) => bytes > (this.nextLook.get(pid) ?? this.options.bytes));
    if (grown.length === 0) return;
    await this.options.look().catch(() => {});
    for (const [pid, bytes] of grown) this.nextLook.set(pid, bytes + this.options.bytes / 8);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.options.timers.setTimeout(() => {
      void this.check().finally(() => this.schedule());
    }, this.options.everyMs);
  }
}

/** Bytes per page of memory, as /proc/<pid>/statm counts them: this process's RSS over its page count. */
let pageBytes: number | undefined;
function pageSize(): number {
  if (pageBytes === undefined) {
    const pages = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]);
    const ratio = process.memoryUsage().rss / pages;
    // The nearest power of two: the two readings are a moment apart.
    pageBytes = 2 ** Math.round(Math.log2(ratio > 0 && Number.isFinite(ratio) ? ratio : 4096));
  }
  return pageBytes;
}

/**
 * What each process seen is, by pid (its command line is read once): a renderer; another of the browser's own
 * processes (a zygote, the GPU process, a utility); or one that says neither, read as a renderer would be, so a
 * browser that names its processes otherwise is still watched.
 */
type ProcessKind = 'renderer' | 'other' | 'unknown';
const renderers = new Map<number, ProcessKind>();

/**
 * Resident bytes of each renderer process in the trees under `roots`, from /proc (Linux; elsewhere empty): a tab's
 * heap lives in its renderer, and the browser's own processes grow with the number of sessions, not with a page. The
 * roots' children are found per thread (a browser starts its helpers from several threads), their descendants' from
 * their main thread; a renderer starts none, so each costs one read of its size per call.
 */
export function readProcessMemory(roots: readonly number[]): Map<number, number> {
  const sizes = new Map<number, number>();
  if (process.platform !== 'linux') return sizes;
  const page = pageSize();
  const seen = new Set<number>();
  const visit = (pid: number, root: boolean) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    const kind = root ? 'other' : kindOf(pid);
    if (kind !== 'other') {
      try {
        const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * page;
        if (Number.isFinite(resident)) sizes.set(pid, resident);
      } catch {
        // The process ended while we looked.
      }
    }
    if (kind !== 'renderer') for (const child of childrenOf(pid, root)) visit(child, false);
  };
  for (const root of roots) visit(root, true);
  for (const pid of renderers.keys()) if (!seen.has(pid)) renderers.delete(pid);
  return sizes;
}

function kindOf(pid: number): ProcessKind {
  let kind = renderers.get(pid);
  if (kind === undefined) {
    let line: string;
    try {
      line = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // Gone: nothing to read, now or later.
      return 'other';
    }
    // Chromium rewrites a child's command line in place, its arguments joined by spaces or by NULs.
    const type = /(?:^|[\s\0])--type=([\w-]+)/.exec(line)?.[1];
    kind = type === undefined ? 'unknown' : type === 'renderer' ? 'renderer' : 'other';
    renderers.set(pid, kind);
  }
  return kind;
}

function childrenOf(pid: number, everyThread: boolean): number[] {
  let threads: string[];
  try {
    threads = everyThread ? readdirSync(`/proc/${pid}/task`) : [String(pid)];
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const thread of threads) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ')) if (child) children.push(Number(child));
    } catch {
      // The thread or the process ended while we looked.
    }
  }
  return children;
}

/** Sessions whose tabs are measured at once when a browser's memory watch asks (each opens a DevTools session per tab). */
const HEAP_MEASURES_AT_ONCE = 8;

/** A session as the memory watch sees it: its tabs' heaps can be measured. */
interface MeasuredSession {
  runaway: { measureHeaps(): Promise<void> };
}

/**
 * The memory watches of the browsers this process launched, one each: one timer per browser reading its processes'
 * sizes, and its sessions' tabs measured only when a process holds more than the bound (see MemoryWatch). A browser
 * reached over an endpoint has no processes here to read; its host's own limits bound it (docs/limits.md).
 */
export class BrowserMemory {
  private readonly watches = new Map<Browser, MemoryWatch>();

  constructor(
    private readonly limits: { heapBytes: number; heapCheckMs: number },
    private readonly sessionsIn: (browser: Browser) => MeasuredSession[],
  ) {}

  /** Watches a launched browser started as the processes `roots`, until it disconnects (nothing when the bound is off). */
  watch(browser: Browser, roots: readonly number[]): void {
    if (this.limits.heapBytes === 0 || this.watches.has(browser) || roots.length === 0) return;
    const watch = new MemoryWatch({
      roots,
      bytes: this.limits.heapBytes,
      everyMs: this.limits.heapCheckMs,
      // It reads real processes, whose memory grows in real time: the system's timers, not the manager's.
      timers: systemTimers,
      look: () => this.measure(browser),
    }).start();
    this.watches.set(browser, watch);
    browser.once('disconnected', () => {
      watch.stop();
      this.watches.delete(browser);
    });
  }

  /** Stops every watch (shutdown). */
  stop(): void {
    for (const watch of this.watches.values()) watch.stop();
    this.watches.clear();
  }

  /** Measures the tabs of every session in `browser`, a few sessions at a time. */
  private async measure(browser: Browser): Promise<void> {
    const waiting = this.sessionsIn(browser);
    const next = async (): Promise<void> => {
      for (let session = waiting.shift(); session; session = waiting.shift()) await session.runaway.measureHeaps();
    };
    await Promise.all(Array.from({ length: HEAP_MEASURES_AT_ONCE }, next));
  }
}
