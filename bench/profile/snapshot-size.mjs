// Profile of snapshot size: where sessionwright's extra characters come from on each page (JSON escaping of the same
// Playwright aria snapshot), and what dropping `[cursor=pointer]` from links and buttons (implied by their role) would give.
// Run after `pnpm build`: node bench/profile/snapshot-size.mjs
import { startFixtureServer } from '@sessionwright/test-kit';
import { startBoth } from './servers.mjs';

const fixture = await startFixtureServer();
const { sw, pw, close } = await startBoth();
const text = (result) =>
  result.content
    .filter((item) => item.type === 'text')
    .map((item) => item.text)
    .join('\n');
const sessionId = JSON.parse(text(await sw.callTool({ name: 'create_session', arguments: {} }))).sessionId;
const totals = { ours: 0, theirs: 0, trimmed: 0 };
console.log('page          ours  theirs  ratio  escapes(\\n, \\")  trimmed ratio');
for (const page of ['home', 'form', 'buttons', 'list', 'choices', 'big']) {
  const url = fixture.urlFor(`/pages/${page}`);
  await sw.callTool({ name: 'navigate', arguments: { sessionId, url } });
  const ours = text(await sw.callTool({ name: 'snapshot', arguments: { sessionId, maxChars: 200_000 } }));
  await pw.callTool({ name: 'browser_navigate', arguments: { url } });
  const theirs = text(await pw.callTool({ name: 'browser_snapshot', arguments: {} }));
  const result = JSON.parse(ours);
  const escapes = (result.snapshot.match(/\n/g)?.length ?? 0) + (result.snapshot.match(/"/g)?.length ?? 0);
  const trimmed = JSON.stringify({ ...result, snapshot: result.snapshot.replace(/^(\s*- (?:link|button)\b.*?) \[cursor=pointer\]/gm, '$1') });
  totals.ours += ours.length;
  totals.theirs += theirs.length;
  totals.trimmed += trimmed.length;
  console.log(
    `${page.padEnd(12)} ${String(ours.length).padStart(6)} ${String(theirs.length).padStart(7)}  ${(ours.length / theirs.length).toFixed(2)}  ${String(escapes).padStart(15)}  ${(trimmed.length / theirs.length).toFixed(2)}`,
  );
}
console.log(
  `all          ${String(totals.ours).padStart(6)} ${String(totals.theirs).padStart(7)}  ${(totals.ours / totals.theirs).toFixed(2)}  ${''.padStart(15)}  ${(totals.trimmed / totals.theirs).toFixed(2)}`,
);
await close();
await fixture.close();
