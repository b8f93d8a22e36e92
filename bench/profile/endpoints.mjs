// Sessions created and navigations per second: one local browser vs one and two local Playwright browser servers
// (launchServer(), each its own browser process), driven through session-core's SessionManager as the server drives it.
// Run after `pnpm build`: node bench/profile/endpoints.mjs [sessions] [navigations-per-session] [rounds]
import { createRequire } from 'node:module';
import os from 'node:os';
import { BrowserHost, RemoteBrowser, SessionManager } from '@sessionwright/session-core';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startBrowserServer, startFixtureServer } from '@sessionwright/test-kit';

const [sessions = 20, navigations = 10, rounds = 3] = process.argv.slice(2).map(Number);
const require = createRequire(import.meta.url);
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? require('playwright').chromium.executablePath();
const page = `<!doctype html><title>Bench app</title><h1>Orders</h1><ul>${'<li>row</li>'.repeat(50)}</ul><button id="inc">Increment</button>`;
const fixture = await startFixtureServer({ pages: { app: page } });
const servers = await Promise.all([0, 1].map(() => startBrowserServer({ playwright: require.resolve('playwright'), executablePath: executable })));

const systems = {
  'one local browser': () => [new BrowserHost({ headless: true, executablePath: executable })],
  'one browser server': () => [new RemoteBrowser({ kind: 'connect', endpoint: servers[0].wsEndpoint })],
  'two browser servers': () => servers.map((server) => new RemoteBrowser({ kind: 'connect', endpoint: server.wsEndpoint })),
};

/** Creates `sessions` sessions at once, then navigates each `navigations` times (sessions in parallel, each in order). */
async function measure(makeSources) {
  const sources = makeSources().map((source) => source.start());
  // No warm pool: every creation opens a context, which is the work being spread.
  const manager = new SessionManager({ host: sources, maxSessions: sessions, warmSessions: 0 });
  await Promise.all(sources.map((source) => source.browser()));
  let started = performance.now();
  const created = await Promise.all(Array.from({ length: sessions }, () => manager.create()));
  const createSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await Promise.all(
    created.map(async (session, index) => {
      for (let i = 0; i < navigations; i += 1) {
        await manager.run(session.id, (p) => p.goto(fixture.urlFor(`/pages/app?s=${index}&i=${i}`)).then(() => p.title()));
      }
    }),
  );
  const navigateSeconds = (performance.now() - started) / 1000;
  await manager.shutdown();
  return { sessionsPerSecond: sessions / createSeconds, navigationsPerSecond: (sessions * navigations) / navigateSeconds };
}

const results = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  // Interleaved, so a noisy moment of the machine falls on every system alike.
  for (const [name, make] of Object.entries(systems)) results[name].push(await measure(make));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}; ${sessions} sessions × ${navigations} navigations, median of ${rounds} rounds`,
);
console.log('| browsers | sessions created / s | navigations / s |\n|---|---|---|');
for (const [name, runs] of Object.entries(results)) {
  console.log(`| ${name} | ${median(runs.map((r) => r.sessionsPerSecond)).toFixed(1)} | ${median(runs.map((r) => r.navigationsPerSecond)).toFixed(1)} |`);
}
await Promise.all(servers.map((server) => server.kill()));
await fixture.close();
