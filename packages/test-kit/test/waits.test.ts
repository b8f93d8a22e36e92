// The waiting helpers: waitForOutput sees only what came after its offset, holdsFor fails the moment its condition breaks.
import { describe, expect, it } from 'vitest';
import { holdsFor, waitForOutput } from '../src/index.js';

describe('waitForOutput', () => {
  it('resolves once the pattern shows after the offset, not for what came before it', async () => {
    let text = 'ready\n';
    const from = text.length;
    setTimeout(() => (text += 'still starting\n'), 10);
    setTimeout(() => (text += 'ready\n'), 40);
    await waitForOutput(() => text, /ready/, { from });
    expect(text.slice(from)).toContain('ready');
    await expect(waitForOutput(() => text, /never/, { timeout: 100 })).rejects.toThrow(/no \/never\/ within 100 ms in:\nready/);
  });
});

describe('holdsFor', () => {
  it('resolves when the condition holds through the window', async () => {
    let checks = 0;
    await holdsFor(() => ++checks > 0, 100);
    expect(checks).toBeGreaterThan(1);
  });

  it('rejects as soon as the condition breaks, without waiting out the window', async () => {
    let broken = false;
    setTimeout(() => (broken = true), 20);
    const started = Date.now();
    await expect(holdsFor(() => !broken, 60_000, { what: 'nothing broke' })).rejects.toThrow(/nothing broke stopped holding/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
