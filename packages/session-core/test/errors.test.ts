// The error contract: SessionError's wire shape, its codes and the BROWSER_ERROR reasons.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BROWSER_ERROR_REASONS, ERROR_CODES, SessionError, browserError, isSessionError } from '../src/index.js';
import { messageOf } from '../src/parts.js';

describe('SessionError', () => {
  it('serialises to {errorCode, message, sessionId?, details?}', () => {
    const bare = new SessionError('SESSION_NOT_FOUND', 'No session has this id.');
    expect(bare.toJSON()).toEqual({ errorCode: 'SESSION_NOT_FOUND', message: 'No session has this id.' });
    expect(Object.keys(bare.toJSON())).toEqual(['errorCode', 'message']);

    const full = new SessionError('MAX_SESSIONS_REACHED', 'All 2 sessions are in use.', { sessionId: 'abc', details: { maxSessions: 2 } });
    expect(JSON.parse(JSON.stringify(full))).toEqual({
      errorCode: 'MAX_SESSIONS_REACHED',
      message: 'All 2 sessions are in use.',
      sessionId: 'abc',
      details: { maxSessions: 2 },
    });
    expect(full).toBeInstanceOf(Error);
    expect(full.name).toBe('SessionError');
    expect(isSessionError(full)).toBe(true);
    expect(isSessionError(new Error('x'))).toBe(false);
  });

  it('keeps the cause, and withSession() copies with the id (or returns itself when it already has it)', () => {
    const cause = new Error('root');
    const error = new SessionError('BROWSER_ERROR', 'failed', { details: { a: 1 }, cause });
    expect(error.cause).toBe(cause);
    const named = error.withSession('s-1');
    expect(named).not.toBe(error);
    expect(named).toMatchObject({ code: 'BROWSER_ERROR', message: 'failed', sessionId: 's-1', details: { a: 1 }, cause });
    expect(named.withSession('s-1')).toBe(named);
    expect(new SessionError('BROWSER_ERROR', 'x').cause).toBeUndefined();
  });

  it('round-trips through JSON for any code, message, id and details', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ERROR_CODES),
        fc.string(),
        fc.option(fc.uuid(), { nil: undefined }),
        fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
        (code, message, sessionId, details) => {
          const error = new SessionError(code, message, { ...(sessionId === undefined ? {} : { sessionId }), ...(details === undefined ? {} : { details }) });
          const wire = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
          expect(wire.errorCode).toBe(code);
          expect(wire.message).toBe(message);
          expect('sessionId' in wire).toBe(sessionId !== undefined);
          // A BROWSER_ERROR always has details: at least its reason.
          expect('details' in wire).toBe(details !== undefined || code === 'BROWSER_ERROR');
          if (code === 'BROWSER_ERROR') expect(BROWSER_ERROR_REASONS).toContain((wire.details as Record<string, unknown>).reason);
          expect(Object.keys(wire).every((key) => ['errorCode', 'message', 'sessionId', 'details'].includes(key))).toBe(true);
          expect(wire).toEqual(JSON.parse(JSON.stringify(error.toJSON())));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('lists every code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect([...ERROR_CODES].sort()).toEqual(
      [
        'BROWSER_ERROR',
        'ELEMENT_AMBIGUOUS',
        'ELEMENT_NOT_CLICKABLE',
        'ELEMENT_NOT_EDITABLE',
        'ELEMENT_NOT_FOUND',
        'INVALID_PARAMETERS',
        'MAX_SESSIONS_REACHED',
        'NAVIGATION_FAILED',
        'SESSION_EXPIRED',
        'SESSION_NOT_FOUND',
        'WAIT_TIMEOUT',
      ].sort(),
    );
  });

  it('messageOf gives the message of anything thrown', () => {
    expect(messageOf(new TypeError('bad'))).toBe('bad');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(42)).toBe('42');
  });
});
describe('BROWSER_ERROR reasons', () => {
  it('browserError sets the reason it is given, and keeps the other details', () => {
    for (const reason of BROWSER_ERROR_REASONS) {
      expect(browserError(reason, 'm', { details: { browserMessage: 'x' } }).details).toEqual({ browserMessage: 'x', reason });
    }
  });

  it('gives any BROWSER_ERROR built without a valid reason the reason unknown', () => {
    fc.assert(
      fc.property(fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }), (details) => {
        const error = new SessionError('BROWSER_ERROR', 'm', details === undefined ? {} : { details });
        expect(BROWSER_ERROR_REASONS).toContain(error.details?.reason);
      }),
      { numRuns: 100 },
    );
  });
});
