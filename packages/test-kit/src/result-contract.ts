// The result contract (README: Results) as test assertions, for the in-process tool tests and the spawned-server tests alike.
import { validate, version } from 'uuid';
import { expect } from 'vitest';
import type { JsonToolResult } from './mcp-client.js';

/** What the contract checks codes and reasons against: the server's closed sets, passed in so this kit needs no server package. */
export interface ContractSets {
  errorCodes: readonly string[];
  browserErrorReasons: readonly string[];
}

/**
 * `expectWellFormed` (a success has structuredContent equal to content[0].text as JSON; a failure has only the error
 * JSON, with a known code, a message, the sessionId when the call named one, and no stack trace), `expectError` and
 * `expectSuccess`, checked against these sets.
 */
export function resultContract<Code extends string>(sets: ContractSets) {
  function expectWellFormed(outcome: JsonToolResult, args: unknown): void {
    const { result, json } = outcome;
    const first = result.content[0];
    expect(first?.type).toBe('text');
    if (!outcome.isError) {
      expect(result.structuredContent).toEqual(json);
      return;
    }
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toHaveLength(1);
    expect(Object.keys(json).every((key) => ['errorCode', 'message', 'sessionId', 'details'].includes(key))).toBe(true);
    expect(sets.errorCodes).toContain(json.errorCode);
    expect(typeof json.message).toBe('string');
    expect(json.message.trim()).not.toBe('');
    expect((first as { text: string }).text).not.toContain('    at ');
    if (json.details !== undefined) expect(typeof json.details).toBe('object');
    // Every BROWSER_ERROR carries a reason from the closed set; `unknown` carries the browser's own message.
    if (json.errorCode === 'BROWSER_ERROR') {
      expect(sets.browserErrorReasons).toContain(json.details?.reason);
      if (json.details.reason === 'unknown') expect(typeof json.details.browserMessage).toBe('string');
    }
    const named = typeof args === 'object' && args !== null ? (args as Record<string, unknown>).sessionId : undefined;
    if (typeof named === 'string' && named !== '') expect(json.sessionId).toBe(named);
  }

  /** A failure with this code (and the session named, when given); returns the error JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields straight off the JSON a tool answered.
  function expectError(outcome: JsonToolResult, code: Code, sessionId?: string): any {
    expect(outcome.isError, `expected ${code}, got ${JSON.stringify(outcome.json)}`).toBe(true);
    expect(outcome.json.errorCode, JSON.stringify(outcome.json)).toBe(code);
    expect(outcome.json.message.length).toBeGreaterThan(0);
    if (sessionId !== undefined) expect(outcome.json.sessionId).toBe(sessionId);
    return outcome.json;
  }

  /** A success; returns structuredContent (already checked equal to content[0].text). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields straight off the JSON a tool answered.
  function expectSuccess(outcome: JsonToolResult): any {
    expect(outcome.isError, `expected success, got ${JSON.stringify(outcome.json)}`).toBe(false);
    expect(outcome.result.structuredContent).toEqual(outcome.json);
    return outcome.json;
  }

  return { expectWellFormed, expectError, expectSuccess };
}

/** Whether `id` is a UUID v4, the shape of every sessionId. */
export function isUuidV4(id: unknown): boolean {
  return typeof id === 'string' && validate(id) && version(id) === 4;
}
