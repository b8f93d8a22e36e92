// Shared test helpers: the SessionError a call throws or rejects with.
import { expect } from 'vitest';
import { SessionError } from '../src/index.js';

/** The SessionError a synchronous call throws (fails the test if it throws anything else or nothing). */
export function errorOf(fn: () => unknown): SessionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionError);
    return error as SessionError;
  }
  throw new Error('expected the call to throw a SessionError');
}

/** The SessionError a promise rejects with (fails the test if it resolves or rejects with anything else). */
export async function rejectionOf(promise: Promise<unknown>): Promise<SessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}
