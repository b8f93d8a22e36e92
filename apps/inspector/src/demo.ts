// `pnpm demo`: three users sign in at once, each in an isolated session of one shared browser, through the real MCP server.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliArgs } from './cli-args.js';
import { shortId } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import { DEMO_USERS, welcomeTitle, type DemoUser } from './demo-site/pages.js';
import { startDemoSite, type DemoSite } from './demo-site/server.js';
import { imageSize } from '@sessionwright/tools';
import { connectStdioServer, type CallOutcome, type ServerLink } from './server-link.js';

const USAGE = `Usage: pnpm demo [-- --out <dir>] [--executable-path <browser>]

Starts the bundled demo site and the built sessionwright server (stdio, headless), signs three users in
at once in three sessions, checks that each session sees only its own user, and saves a screenshot of each.

  --out <dir>               where screenshots go (default: demo-output/ at the repository root)
  --executable-path <path>  the browser binary the server should launch (default: found automatically)`;

/** The whole demo normally takes a few seconds; past this something hangs, and saying so beats waiting forever. */
const DEADLINE_MS = 120_000;
const REQUIRED_TOOLS = ['create_session', 'navigate', 'type', 'click', 'close_session'];
const STEPS = ['create', 'open', 'sign in', 'greet', 'screenshot'] as const;
type Step = (typeof STEPS)[number];
/** What the demo is doing now, for the timeout message. */
let currentStep = 'start-up';

/** A failure the demo explains itself: `message` is the headline, `lines` the advice under it. */
class DemoFailure extends Error {
  override readonly name = 'DemoFailure';
  constructor(
    message: string,
    readonly lines: string[] = [],
  ) {
    super(message);
  }
}

interface Run {
  user: DemoUser;
  sessionId: string;
  url: string;
  title: string;
  ms: Partial<Record<Step, number>>;
  screenshot?: { file: string; width: number; height: number };
}

async function main(): Promise<number> {
  let flags;
  try {
    flags = parseArgs({ args: cliArgs(), options: { out: { type: 'string' }, 'executable-path': { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (error) {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // dist/demo.js → the repository root, so `pnpm demo` (which runs in apps/inspector) still writes to ./demo-output.
  const outDir = resolve(flags.out ?? fileURLToPath(new URL('../../../demo-output', import.meta.url)));
  const serverArgs = ['--headless', ...(flags['executable-path'] ? ['--executable-path', flags['executable-path']] : [])];

  const started = performance.now();
  let site: DemoSite | undefined;
  let link: ServerLink | undefined;
  const runs: Run[] = [];
  let deadline: NodeJS.Timeout | undefined;
  try {
    const work = (async () => {
      process.stdout.write('sessionwright demo: three users sign in at once, each in an isolated session of one shared browser\n\n');
      site = await startDemoSite();
      line('demo site', site.url);
      link = await connectStdioServer(serverArgs).catch((error: unknown) => {
        throw new DemoFailure('could not start the sessionwright server', [
          messageOf(error),
          'Run `pnpm build` first if packages/server-stdio/dist is missing.',
        ]);
      });
      line('server', `${link.serverName} (${link.target})`);
      const tools = (await link.listTools()).map((tool) => tool.name);
      const missing = REQUIRED_TOOLS.filter((name) => !tools.includes(name));
      if (missing.length > 0) throw new DemoFailure(`the server lacks the tools ${missing.join(', ')}`);
      const canScreenshot = tools.includes('screenshot');
      line('tools', tools.join(', '));
      process.stdout.write('\n');
      await play(link, site, DEMO_USERS, runs, outDir, canScreenshot);
      printTable(runs, canScreenshot);
      process.stdout.write('\n');
      const users = runs.map((run) => run.user.username);
      line('isolation', `ok: ${runs.length} sessions, ${new Set(users).size} different users; each session's /welcome greets only its own user`);
      if (canScreenshot) {
        const shots = runs.map((run) => `${displayPath(run.screenshot?.file ?? '')} (${run.screenshot?.width}×${run.screenshot?.height})`);
        line('screenshots', shots.join(', '));
      } else {
        line('screenshots', 'unavailable: this server build has no screenshot tool yet');
      }
    })();
    // After a timeout the work may still fail as things are torn down; that is no longer news.
    work.catch(() => {});
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new DemoFailure(`timed out after ${DEADLINE_MS / 1000} s in the step "${currentStep}"`)), DEADLINE_MS);
      }),
    ]);
    line('done', `in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    reportFailure(error, link);
    return 1;
  } finally {
    clearTimeout(deadline);
    // Sessions would close with the server anyway; closing them says goodbye the way a well-behaved client does.
    if (link) {
      const open = runs.filter((run) => run.sessionId !== '');
      const closing = Promise.all(open.map((run) => link?.call('close_session', { sessionId: run.sessionId })));
      // A hung server must not hang the exit too: link.close() below ends it either way.
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await link.close().catch(() => {});
    }
    await site?.close();
  }
}

/**
 * Runs the scenario in phases, each phase in parallel across the users. Everyone signs in before anyone reads
 * /welcome, so at that moment the browser holds all three sign-in cookies at once: a leak between sessions would show.
 */
async function play(link: ServerLink, site: DemoSite, users: readonly DemoUser[], runs: Run[], outDir: string, canScreenshot: boolean): Promise<void> {
  const phase = (step: Step, fn: (run: Run) => Promise<void>) => {
    currentStep = step;
    return Promise.all(
      runs.map(async (run) => {
        const started = performance.now();
        await fn(run);
        run.ms[step] = Math.round(performance.now() - started);
      }),
    );
  };
  const call = async (run: Run, tool: string, args: Record<string, unknown>, step: string): Promise<Record<string, unknown>> => {
    const outcome = await link.call(tool, args);
    if (outcome.isError) throw callFailure(`${step} for ${run.user.username}: ${tool} answered ${outcome.errorCode}`, outcome);
    return outcome.json as Record<string, unknown>;
  };

  runs.push(...users.map((user) => ({ user, sessionId: '', url: '', title: '', ms: {} })));
  await phase('create', async (run) => {
    run.sessionId = String((await call(run, 'create_session', {}, 'create'))['sessionId']);
  });
  await phase('open', async (run) => {
    await call(run, 'navigate', { sessionId: run.sessionId, url: site.urlFor('/login') }, 'open');
  });
  await phase('sign in', async (run) => {
    const { sessionId, user } = run;
    await call(run, 'type', { sessionId, selector: '#username', text: user.username }, 'sign in');
    await call(run, 'type', { sessionId, selector: '#password', text: user.password }, 'sign in');
    const clicked = await call(run, 'click', { sessionId, selector: '#sign-in' }, 'sign in');
    if (clicked['title'] !== welcomeTitle(user)) {
      throw new DemoFailure(`signing in as ${user.username} did not reach the welcome page`, [`title after the click: "${String(clicked['title'])}"`]);
    }
  });
  await phase('greet', async (run) => {
    const page = await call(run, 'navigate', { sessionId: run.sessionId, url: site.urlFor('/welcome') }, 'greet');
    run.url = String(page['url']);
    run.title = String(page['title']);
    if (run.title !== welcomeTitle(run.user)) {
      throw new DemoFailure(`isolation broken: the session of ${run.user.username} sees "${run.title}"`, [`expected "${welcomeTitle(run.user)}"`]);
    }
  });
  if (!canScreenshot) return;
  await mkdir(outDir, { recursive: true });
  await phase('screenshot', async (run) => {
    const outcome = await link.call('screenshot', { sessionId: run.sessionId });
    if (outcome.isError) throw callFailure(`screenshot for ${run.user.username}: screenshot answered ${outcome.errorCode}`, outcome);
    const image = outcome.images[0];
    if (!image) throw new DemoFailure(`screenshot for ${run.user.username} returned no image item`);
    const bytes = Buffer.from(image.data, 'base64');
    let size;
    try {
      size = imageSize(bytes);
    } catch {
      throw new DemoFailure(`screenshot for ${run.user.username} is not a PNG or JPEG image (${image.mimeType})`);
    }
    const file = join(outDir, `${run.user.username}.${image.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
    await writeFile(file, bytes);
    run.screenshot = { file, ...size };
  });
}

function printTable(runs: Run[], canScreenshot: boolean): void {
  const steps = STEPS.filter((step) => step !== 'screenshot' || canScreenshot);
  const header = ['session', 'user', 'final URL', 'title', ...steps];
  const rows = runs.map((run) => [shortId(run.sessionId), run.user.username, run.url, run.title, ...steps.map((step) => `${run.ms[step] ?? '-'} ms`)]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  // Timings are right-aligned so their digits line up; text columns are left-aligned.
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i >= 4 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${format(header)}\n${format(widths.map((w) => '-'.repeat(w)))}\n${rows.map(format).join('\n')}\n`);
}

function line(label: string, text: string): void {
  process.stdout.write(`${label.padEnd(13)}${text}\n`);
}

function callFailure(headline: string, outcome: CallOutcome): DemoFailure {
  const lines = [outcome.errorMessage ?? ''];
  const details = (outcome.json as { details?: Record<string, unknown> } | undefined)?.details;
  if (typeof details?.['hint'] === 'string') lines.push(`what to do: ${details['hint']}`);
  if (Array.isArray(details?.['tried'])) lines.push(`tried: ${details['tried'].join(', ')}`);
  return new DemoFailure(headline, lines.filter(Boolean));
}

function reportFailure(error: unknown, link: ServerLink | undefined): void {
  const lines = error instanceof DemoFailure ? [error.message, ...error.lines.map((text) => `  ${text}`)] : [messageOf(error)];
  const stderr = link?.stderrText().trim();
  if (stderr)
    lines.push(
      '  server stderr (last lines):',
      ...stderr
        .split('\n')
        .slice(-5)
        .map((text) => `    ${text}`),
    );
  process.stderr.write(`\ndemo failed: ${lines.join('\n')}\n`);
}

/** Paths relative to where the user ran pnpm (INIT_CWD), since `pnpm --filter` runs this in apps/inspector. */
function displayPath(file: string): string {
  const rel = relative(process.env['INIT_CWD'] ?? process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${messageOf(error)}\n`);
    process.exit(1);
  },
);
