// The agent tools (docs/agent-tools.md) in process (runTool over a real SessionManager, Chromium and the fixture server): console, network, drag, forms and emulation.
import { LARGE_BODY_LENGTH, type FixtureServer } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

// As a server serving every capability group (--caps all).
const harness = useTools();
let fx: FixtureServer;

beforeAll(() => {
  fx = harness.fixture();
});

const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
const ok = async (name: string, args: Record<string, unknown> = {}) => expectSuccess(await tool(name, args));
const sessionOn = (page: string) => harness.sessionOn(page);

describe('console_messages', () => {
  it('returns messages from the lowest level asked for, uncaught errors as error, and only newer ones after a cursor', async () => {
    const sessionId = await sessionOn('console');
    const info = await ok('console_messages', { sessionId });
    expect(info.messages.map((message: { text: string }) => message.text)).toEqual(['log on load', 'info on load', 'warning on load', 'error on load']);
    expect(info.messages[0]).toMatchObject({ type: 'log', url: fx.urlFor('/pages/console'), line: expect.any(Number), time: expect.any(Number) });
    expect(info.dropped).toBe(0);
    const errors = await ok('console_messages', { sessionId, level: 'error' });
    expect(errors.messages.map((message: { type: string }) => message.type)).toEqual(['error']);
    expect((await ok('console_messages', { sessionId, level: 'debug' })).messages).toHaveLength(5);
    await ok('click', { sessionId, selector: '#boom' });
    await expect
      .poll(async () => (await ok('console_messages', { sessionId, since: info.cursor })).messages)
      .toEqual([expect.objectContaining({ type: 'error', text: expect.stringContaining('kaboom') })]);
    expectError(await tool('console_messages', { sessionId, level: 'verbose' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('console_messages', { sessionId, limit: 0 }), 'INVALID_PARAMETERS', sessionId);
  });

  it('keeps the last 1000 of 1500 lines and counts the rest as dropped', async () => {
    const sessionId = await sessionOn('console');
    // Up to 30 s: on a loaded machine the page can take longer than the default 5 s to settle for the click.
    await ok('click', { sessionId, selector: '#flood', timeout: 30_000 });
    await expect
      .poll(async () => (await ok('console_messages', { sessionId, level: 'debug', limit: 1000 })).messages.at(-1)?.text, { timeout: 10_000 })
      .toBe('line 1499');
    const all = await ok('console_messages', { sessionId, level: 'debug', limit: 1000 });
    expect(all.messages).toHaveLength(1000);
    expect(all.messages.at(-1).text).toBe('line 1499');
    expect(all.dropped).toBe(1505 - 1000);
    const page = await ok('console_messages', { sessionId, level: 'debug', limit: 10 });
    expect(page.messages).toHaveLength(10);
    const next = await ok('console_messages', { sessionId, level: 'debug', limit: 10, since: page.cursor });
    expect(next.messages[0].time).toBeGreaterThanOrEqual(page.messages[9].time);
    expect(next.messages[0].text).not.toBe(page.messages[9].text);
  });
});

describe('network_requests and network_request', () => {
  it("lists the page's requests with status, failure and duration, leaving static resources out unless asked", async () => {
    const sessionId = await sessionOn('network');
    await ok('wait_for', { sessionId, selector: '#done:has-text("done")' });
    const { requests } = await ok('network_requests', { sessionId });
    const byUrl = (part: string) => requests.find((request: { url: string }) => request.url.includes(part));
    expect(byUrl('/pages/network')).toMatchObject({ method: 'GET', resourceType: 'document', status: 200 });
    expect(byUrl('/api/json?tag=first')).toMatchObject({ resourceType: 'fetch', status: 200, ms: expect.any(Number) });
    expect(byUrl('/api/echo')).toMatchObject({ method: 'POST', status: 200 });
    expect(byUrl('/api/status/503')).toMatchObject({ status: 503 });
    expect(byUrl('/refused')).toMatchObject({ status: null, failure: expect.stringMatching(/ERR_/) });
    expect(byUrl('tag=unread')).toMatchObject({ status: 200 });
    expect(byUrl('/image.png')).toBeUndefined();
    const withStatic = await ok('network_requests', { sessionId, includeStatic: true });
    expect(
      withStatic.requests.some((request: { url: string; resourceType: string }) => request.url.includes('/image.png') && request.resourceType === 'image'),
    ).toBe(true);
    expect((await ok('network_requests', { sessionId, filter: '/api/' })).requests).toHaveLength(6);
    expect((await ok('network_requests', { sessionId, filter: '/status\\/5\\d\\d$/' })).requests).toHaveLength(1);
    expect((await ok('network_requests', { sessionId, resourceTypes: ['document'] })).requests).toHaveLength(1);
    expectError(await tool('network_requests', { sessionId, filter: '/(unclosed/' }), 'INVALID_PARAMETERS', sessionId);
  });

  it('shows one request with headers and bodies: JSON, a POST body, a binary note, a truncated large body', async () => {
    const sessionId = await sessionOn('network');
    await ok('wait_for', { sessionId, selector: '#done:has-text("done")' });
    const { requests } = await ok('network_requests', { sessionId });
    const idOf = (part: string) => requests.find((request: { url: string }) => request.url.includes(part)).id;
    const json = await ok('network_request', { sessionId, id: idOf('/api/json') });
    expect(json).toMatchObject({
      method: 'GET',
      status: 200,
      responseBody: '{"ok":true,"tag":"first"}',
      requestUrl: expect.stringContaining('/api/json?tag=first'),
    });
    expect(json.url).toContain('/pages/network');
    expect(json.responseHeaders['content-type']).toBe('application/json');
    expect(json.requestHeaders).toEqual(expect.any(Object));
    const echo = await ok('network_request', { sessionId, id: idOf('/api/echo') });
    expect(echo).toMatchObject({ method: 'POST', requestBody: '{"hello":"world"}', responseBody: '{"hello":"world"}' });
    expect((await ok('network_request', { sessionId, id: idOf('/api/binary') })).responseBody).toMatch(/binary body, 256 bytes/);
    const large = await ok('network_request', { sessionId, id: idOf('/api/large') });
    expect(large.truncated).toBe(true);
    expect(large.responseBody).toHaveLength(100_000);
    expect(LARGE_BODY_LENGTH).toBeGreaterThan(100_000);
    // A body the page never read is not complete in the browser: the answer says so instead of waiting for it.
    expect((await ok('network_request', { sessionId, id: idOf('tag=unread') })).responseBody).toMatch(/not available/);
    const never = expectError(await tool('network_request', { sessionId, id: 'r99999' }), 'INVALID_PARAMETERS', sessionId);
    expect(never.details.reason).toBe('unknown_id');
  });

  it('keeps the last 1000 requests of a page that keeps polling, and says how many fell out', async () => {
    const sessionId = await sessionOn('network?n=1300');
    await ok('click', { sessionId, selector: '#poll' });
    // 1 300 fetches one after another can take over a minute on a loaded machine, past a client's request timeout; so
    // waits of 20 s, as many as it takes.
    await expect
      .poll(async () => (await tool('wait_for', { sessionId, selector: '#done:has-text("polled")', timeout: 20_000 })).result.isError, {
        timeout: 180_000,
        interval: 0,
      })
      .toBeFalsy();
    const all = await ok('network_requests', { sessionId, includeStatic: true, limit: 1000 });
    expect(all.requests).toHaveLength(1000);
    expect(all.dropped).toBeGreaterThan(300);
    expect(all.requests.at(-1).url).toContain('tag=poll1299');
    const gone = expectError(await tool('network_request', { sessionId, id: 'r1' }), 'INVALID_PARAMETERS', sessionId);
    expect(gone.details.reason).toBe('dropped');
  }, 240_000);
});

describe('drag', () => {
  it('drags with HTML5 drag and drop and moves a mouse-driven slider', async () => {
    const sessionId = await sessionOn('drag');
    expect(await ok('drag', { sessionId, from: { selector: '#card' }, to: { selector: '#zone' } })).toMatchObject({ success: true, title: 'Drag' });
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#dropped").textContent' })).result).toBe('card');
    await ok('drag', { sessionId, from: { selector: '#thumb' }, to: { selector: '#track-end' } });
    expect(Number((await ok('evaluate', { sessionId, function: '() => document.querySelector("#value").textContent' })).result)).toBeGreaterThan(90);
  });

  it('says which end is missing, and rejects an end with neither selector nor ref', async () => {
    const sessionId = await sessionOn('drag');
    const missing = expectError(
      await tool('drag', { sessionId, from: { selector: '#card' }, to: { selector: '#nowhere' }, timeout: 300 }),
      'ELEMENT_NOT_FOUND',
      sessionId,
    );
    expect(missing.details.end).toBe('to');
    expectError(await tool('drag', { sessionId, from: {}, to: { selector: '#zone' } }), 'INVALID_PARAMETERS', sessionId);
  });
});

describe('fill_form', () => {
  it('fills text fields, a select, a multi-select and checkboxes in one call', async () => {
    const sessionId = await sessionOn('form');
    const filled = await ok('fill_form', {
      sessionId,
      fields: [
        { selector: '#name', value: 'Ada' },
        { selector: '#email', value: 'ada@example.com' },
        { selector: '#color', value: 'Green' },
        { selector: '#agree', value: true },
      ],
    });
    expect(filled.fields).toEqual([
      { index: 0, value: 'Ada' },
      { index: 1, value: 'ada@example.com' },
      { index: 2, value: 'g' },
      { index: 3, value: true },
    ]);
    await ok('navigate', { sessionId, url: fx.urlFor('/pages/choices') });
    const choices = await ok('fill_form', {
      sessionId,
      fields: [
        { selector: '#sizes', value: ['s', 'Large'] },
        { selector: '#pro', value: true },
        { selector: '#news', value: false },
      ],
    });
    expect(choices.fields).toEqual([
      { index: 0, value: ['s', 'l'] },
      { index: 1, value: true },
      { index: 2, value: false },
    ]);
  });

  it('stops at the first failing field with its own code and details.field, keeping the fields before it', async () => {
    const sessionId = await sessionOn('form');
    const failed = expectError(
      await tool('fill_form', {
        sessionId,
        timeout: 5_000,
        fields: [
          { selector: '#name', value: 'Kept' },
          { selector: '#readonly', value: 'x' },
          { selector: '#bio', value: 'never' },
        ],
      }),
      'ELEMENT_NOT_EDITABLE',
      sessionId,
    );
    expect(failed.details.field).toBe(1);
    const values = await ok('evaluate', { sessionId, function: '() => [document.querySelector("#name").value, document.querySelector("#bio").value]' });
    expect(values.result).toEqual(['Kept', '']);
    expect(
      expectError(await tool('fill_form', { sessionId, timeout: 300, fields: [{ selector: '#missing', value: 'x' }] }), 'ELEMENT_NOT_FOUND', sessionId).details
        .field,
    ).toBe(0);
    expect(
      expectError(await tool('fill_form', { sessionId, fields: [{ selector: '#color', value: 'Purple' }] }), 'INVALID_PARAMETERS', sessionId).details.field,
    ).toBe(0);
    expect(
      expectError(await tool('fill_form', { sessionId, fields: [{ selector: '#agree', value: 'yes' }] }), 'ELEMENT_NOT_EDITABLE', sessionId).details.field,
    ).toBe(0);
    expectError(await tool('fill_form', { sessionId, fields: [] }), 'INVALID_PARAMETERS', sessionId);
  });
});

describe('emulate', () => {
  it('changes viewport, colour scheme and the network state, and answers the effective settings', async () => {
    const sessionId = await sessionOn('home');
    const settings = await ok('emulate', {
      sessionId,
      viewport: { width: 600, height: 500 },
      colorScheme: 'dark',
      extraHTTPHeaders: { Authorization: 'Bearer s3cret' },
    });
    expect(settings).toMatchObject({ viewport: { width: 600, height: 500 }, colorScheme: 'dark', extraHTTPHeaders: { Authorization: '(hidden)' } });
    expect(JSON.stringify(settings)).not.toContain('s3cret');
    const seen = await ok('evaluate', { sessionId, function: '() => [innerWidth, matchMedia("(prefers-color-scheme: dark)").matches]' });
    expect(seen.result).toEqual([600, true]);
    expect((await ok('emulate', { sessionId, offline: true })).offline).toBe(true);
    expectError(await tool('navigate', { sessionId, url: fx.urlFor('/pages/form') }), 'NAVIGATION_FAILED', sessionId);
    await ok('emulate', { sessionId, offline: false });
    await ok('navigate', { sessionId, url: fx.urlFor('/pages/form') });
    expectError(await tool('emulate', { sessionId, viewport: { width: 0, height: 10 } }), 'INVALID_PARAMETERS', sessionId);
  });
});
