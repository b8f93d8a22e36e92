// Drives two isolated sessions in one shared browser from a plain script: node examples/two-sessions.mjs <url>
import { BrowserHost, SessionManager, isSessionError } from '@sessionwright/session-core';

const url = process.argv[2];
if (!url) {
  console.error('usage: node examples/two-sessions.mjs <url>');
  process.exit(2);
}

// One browser for the whole process, launched in the background; sessions are contexts inside it.
const host = new BrowserHost({ headless: true }).start();
const manager = new SessionManager({ host, maxSessions: 5, sessionTimeout: 60_000 });

try {
  const [a, b] = await Promise.all([manager.create(), manager.create()]);
  console.log(`browser: ${host.resolved?.description}`);

  // Calls on different sessions run in parallel; calls on one session run one at a time, in order.
  const titles = await Promise.all(
    [a, b].map((session) =>
      manager.run(session.id, async (page) => {
        await page.goto(url);
        return page.title();
      }),
    ),
  );
  console.log(`A title: ${titles[0]}`);
  console.log(`B title: ${titles[1]}`);

  // A cookie set in A is invisible in B: each session is its own BrowserContext.
  // biome-ignore lint/suspicious/noDocumentCookie: the example shows that a cookie set this way stays in its own session.
  await manager.run(a.id, (page) => page.evaluate(() => (document.cookie = 'visited=a; path=/')));
  const cookies = await Promise.all([a, b].map((session) => manager.run(session.id, (page) => page.evaluate(() => document.cookie))));
  console.log(`A cookies: ${cookies[0] || '(none)'}`);
  console.log(`B cookies: ${cookies[1] || '(none)'}`);

  await manager.close(a.id);
  try {
    manager.get(a.id);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    console.log(`A after close: ${error.code}`);
  }
  console.log(`open sessions: ${manager.size}`);
} finally {
  // Closes every session, then the browser: no browser process outlives the script.
  await manager.shutdown();
}
