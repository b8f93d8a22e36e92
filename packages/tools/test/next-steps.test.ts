// The tools layer words session-core's next-step hints for the profile in use.
import { SessionError } from '@sessionwright/session-core';
import { NEXT_STEPS } from '@sessionwright/session-core/parts';
import { describe, expect, it } from 'vitest';
import { SESSIONS_VOCABULARY, nextStepSentence, withNextStep, type ToolVocabulary } from '../src/framework/next-steps.js';

const DROP_IN: ToolVocabulary = {
  createSession: 'create_session',
  listSessions: 'list_sessions',
  closeSession: 'close_session',
  snapshot: 'browser_snapshot',
  navigate: 'browser_navigate',
};

describe('next-step sentences', () => {
  it("name the default profile's tools", () => {
    const unknown = new SessionError('SESSION_NOT_FOUND', 'No session has this id.', { sessionId: 'x', details: { next: 'find_session' } });
    expect(withNextStep(unknown).message).toBe(
      'No session has this id. Use a sessionId returned by create_session, or call list_sessions to see your open sessions.',
    );
    expect(withNextStep(unknown).details).toEqual({ next: 'find_session' });
    expect(withNextStep(unknown).sessionId).toBe('x');
    const full = new SessionError('MAX_SESSIONS_REACHED', 'All 2 sessions of the server are in use.', { details: { next: 'free_session' } });
    expect(withNextStep(full).message).toMatch(/close_session/);
    const stale = new SessionError('ELEMENT_NOT_FOUND', 'No element has ref e9.', { details: { next: 'new_snapshot' } });
    expect(withNextStep(stale).message).toMatch(/take a new snapshot \(snapshot\)/i);
  });

  it("name another profile's tools when given its vocabulary", () => {
    const stale = new SessionError('ELEMENT_NOT_FOUND', 'No element has ref e9.', { details: { next: 'new_snapshot' } });
    expect(withNextStep(stale, DROP_IN).message).toMatch(/browser_snapshot/);
    expect(nextStepSentence('load_page', DROP_IN)).toMatch(/browser_navigate/);
  });

  it('have a sentence for every hint, and leave errors without a hint alone', () => {
    for (const next of NEXT_STEPS) expect(nextStepSentence(next, SESSIONS_VOCABULARY).length).toBeGreaterThan(10);
    const plain = new SessionError('WAIT_TIMEOUT', 'Not yet.');
    expect(withNextStep(plain)).toBe(plain);
  });
});
