// Starts Chromium before Playwright is loaded, as the last start with the same settings launched it, so that the two run side by side.
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isPipeBrowserCommand, killProcessGroup } from '@sessionwright/session-core/parts';
import { privateCacheDirectory, readCache, writeCache } from './private-cache.js';

// The module object itself (an import's namespace cannot be assigned to): Playwright looks `spawn` up on it at each call.
const childProcess = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');

/** The command line Playwright spawned Chromium with, its profile directory left out (a new one each launch). */
interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
}

interface EarlyBrowser {
  readonly child: ChildProcess;
  readonly command: LaunchCommand;
  readonly env: NodeJS.ProcessEnv;
  readonly stopWatchingSignals: () => void;
}

interface EarlyStart {
  /** Where this start's settings keep the command of their first launch. */
  readonly dir: string;
  readonly file: string;
  /** The command read from there, as written. */
  readonly recorded: string | undefined;
  /** The browser started from it, until the first launch takes it or it is let go. */
  early: EarlyBrowser | undefined;
  /** Set when the first launch begins: only that launch may take the early browser, and only it is recorded. */
  launching: boolean;
}

/** Playwright's stdio for a browser it drives over a pipe: fds 3 and 4 carry the protocol. */
const PIPE_STDIO: SpawnOptions['stdio'] = ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'];
const PROFILE_SWITCH = '--user-data-dir=';
/** A start whose first launch has not begun by then launches nothing at start-up any more (its settings changed). */
const UNCLAIMED_MS = 30_000;
const EXIT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Called first thing by a program that launches Chromium as soon as it starts (the CLI), with what decides how it launches
 * (its arguments, directory, environment settings). If the last start with the same `settings` launched Chromium, the
 * same command is started now, in a profile directory of its own; the first launch takes it if Playwright asks for
 * exactly that command (launchWithEarlyBrowser), else it is killed and Playwright's own starts. Chromium's start then
 * runs on another core while Playwright loads, instead of after it.
 */
export function startBrowserEarly(settings: readonly string[]): void {
  if (process.platform === 'win32') return;
  const dir = privateCacheDirectory('launch');
  if (!dir) return;
  const file = path.join(dir, createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32));
  const recorded = readCache(file)?.toString('utf8');
  const state: EarlyStart = { dir, file, recorded, early: undefined, launching: false };
  (globalThis as { [STATE]?: EarlyStart })[STATE] = state;
  const command = recorded === undefined ? undefined : parseCommand(recorded);
  if (!command) return;
  const env = { ...process.env };
  let profile: string;
  try {
    profile = mkdtempSync(path.join(os.tmpdir(), 'sessionwright-profile-'));
  } catch {
    return;
  }
  const removeProfile = () => {
    try {
      rmSync(profile, { recursive: true, force: true });
    } catch {
      // Busy or gone: it is in the temporary directory, and this must never throw from an exit or close handler.
    }
  };
  let child: ChildProcess | undefined;
  const end = () => {
    if (child) kill(child);
    removeProfile();
  };
  process.once('exit', end);
  // A signal before the program has handlers of its own would end it without 'exit', and leave both behind. Listened for
  // before the spawn, not after: a signal sent as soon as the browser is seen can come before the next line runs.
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    end();
    stopWatchingSignals();
    process.kill(process.pid, signal);
  };
  const stopWatchingSignals = () => {
    for (const signal of EXIT_SIGNALS) process.removeListener(signal, onSignal);
  };
  for (const signal of EXIT_SIGNALS) process.on(signal, onSignal);
  const giveUp = () => {
    stopWatchingSignals();
    process.removeListener('exit', end);
    removeProfile();
  };
  try {
    child = childProcess.spawn(
      command.command,
      command.args.map((arg) => (arg === PROFILE_SWITCH ? `${PROFILE_SWITCH}${profile}` : arg)),
      // Detached as Playwright does it: the browser leads a process group, which a kill of the group ends whole.
      { detached: true, env, stdio: PIPE_STDIO },
    );
  } catch {
    giveUp();
    return;
  }
  child.on('error', () => {});
  if (child.pid === undefined) {
    giveUp();
    return;
  }
  // Until a launch takes it, it must not keep a program that ends early (a usage error) from exiting.
  setReferenced(child, false);
  child.once('close', removeProfile);
  state.early = { child, command, env, stopWatchingSignals };
  setTimeout(() => {
    if (state.launching || !state.early) return;
    // The record first: whoever sees the browser gone then finds the record gone too.
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
    letGo(state);
  }, UNCLAIMED_MS).unref();
}

/** The pid of the early browser while no launch has taken it (it is this process's child before any launch). */
export function earlyBrowserPid(): number | undefined {
  return earlyStart()?.early?.child.pid;
}

/**
 * Runs a launch of the browser (Playwright's `launch()`): the first one after startBrowserEarly is handed the early
 * browser when Playwright spawns exactly its command, and the command it spawned is kept for the next start with the same
 * settings. Any other launch, or any program that did not call startBrowserEarly (a library user), just runs.
 */
export async function launchWithEarlyBrowser<T>(launch: () => Promise<T>): Promise<T> {
  const state = earlyStart();
  if (!state || state.launching) return launch();
  state.launching = true;
  const spawn = childProcess.spawn;
  let spawned: LaunchCommand | undefined;
  childProcess.spawn = function spawnOrTakeEarly(this: unknown, ...call: Parameters<typeof spawn>) {
    const [command, args, options] = call as unknown as [string, readonly string[] | undefined, SpawnOptions | undefined];
    if (spawned || !Array.isArray(args) || !isPipeBrowserCommand(args)) return spawn.apply(this, call);
    spawned = { command, args: args.map((arg) => (arg.startsWith(PROFILE_SWITCH) ? PROFILE_SWITCH : arg)) };
    const early = state.early;
    if (early && isSameSpawn(early, spawned, options)) {
      state.early = undefined;
      early.stopWatchingSignals();
      setReferenced(early.child, true);
      return early.child;
    }
    letGo(state);
    return spawn.apply(this, call);
  } as typeof spawn;
  try {
    const launched = await launch();
    const record = spawned && spawned.args.filter((arg) => arg === PROFILE_SWITCH).length === 1 ? JSON.stringify(spawned) : undefined;
    if (record !== undefined && record !== state.recorded) writeCache(state.dir, state.file, Buffer.from(record));
    return launched;
  } finally {
    childProcess.spawn = spawn;
    letGo(state);
  }
}

const STATE = Symbol.for('sessionwright.earlyBrowser');
/** Kept per process, not per module: the CLI's entry and its bundle each carry a copy of this module. */
function earlyStart(): EarlyStart | undefined {
  return (globalThis as { [STATE]?: EarlyStart })[STATE];
}

function parseCommand(text: string): LaunchCommand | undefined {
  try {
    const value = JSON.parse(text) as Partial<LaunchCommand>;
    if (typeof value.command === 'string' && Array.isArray(value.args) && value.args.every((arg) => typeof arg === 'string'))
      return { command: value.command, args: value.args };
  } catch {
    // A cache written by another version, or cut short: launch the usual way, and record anew.
  }
  return undefined;
}

/** Playwright asked for the very process that was started early: same executable, arguments, environment and stdio. */
function isSameSpawn(early: EarlyBrowser, spawned: LaunchCommand, options: SpawnOptions | undefined): boolean {
  const { child } = early;
  if (child.exitCode !== null || child.signalCode !== null) return false;
  if (spawned.command !== early.command.command || JSON.stringify(spawned.args) !== JSON.stringify(early.command.args)) return false;
  if (options?.detached !== true || options.cwd !== undefined || options.shell) return false;
  if (JSON.stringify(options.stdio) !== JSON.stringify(PIPE_STDIO)) return false;
  const env = options.env ?? process.env;
  const keys = Object.keys(env);
  return keys.length === Object.keys(early.env).length && keys.every((key) => env[key] === early.env[key]);
}

function letGo(state: EarlyStart): void {
  if (!state.early) return;
  kill(state.early.child);
  state.early.stopWatchingSignals();
  state.early = undefined;
}

function setReferenced(child: ChildProcess, referenced: boolean): void {
  for (const handle of [child, ...child.stdio]) {
    const target = handle as { ref?: () => void; unref?: () => void } | null;
    if (referenced) target?.ref?.();
    else target?.unref?.();
  }
}

function kill(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  killProcessGroup(child.pid);
}
