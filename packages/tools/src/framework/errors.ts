// The tools layer's one error mapping (toolError, over the page routines' browserFailure), and the codes of navigation failures and refused arguments.
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { firstLine, isTimeoutError, messageOf, defined } from '@sessionwright/session-core/parts';
import type { z } from 'zod';
import { browserFailure } from '../page/errors.js';
import { withNextStep, type ToolVocabulary } from './next-steps.js';

/** NAVIGATION_FAILED with the browser's reason (net::ERR_…, a timeout, an abort). */
export function navigationError(error: unknown, context: { url: string; timeout?: number }): SessionError {
  if (isSessionError(error)) return error;
  const browserMessage = firstLine(messageOf(error));
  const timedOut = isTimeoutError(error);
  const reason = timedOut ? 'timeout' : (/net::(ERR_[A-Z_]+)/.exec(browserMessage)?.[1] ?? 'navigation failed');
  const message = timedOut
    ? `Loading ${context.url} did not finish within ${context.timeout} ms. Try a larger timeout or waitUntil "domcontentloaded".`
    : `Could not load ${context.url}: ${reason}. Check the URL and that the site is reachable.`;
  return new SessionError('NAVIGATION_FAILED', message, {
    details: { url: context.url, reason, browserMessage, ...defined({ timeout: context.timeout }) },
  });
}

/** What the mapping of a failure knows of its call. */
interface FailureContext {
  /** The tool, named in the message of a failure that is not already a SessionError. */
  tool?: string;
  /** The tool names of the call's profile: the error's next step is said in them. */
  vocabulary?: ToolVocabulary;
  /** The session the call named, set on an error that names none. */
  sessionId?: string;
}

/**
 * The one mapping of a failure in the tools layer: a SessionError stays as it is; anything else is BROWSER_ERROR reason
 * `unknown` with the browser's own message ("<tool> failed: …", or "The browser reported an error: …" without a tool).
 * With a vocabulary the error's next step (details.next) is said in the profile's words; with a sessionId the error
 * names that session unless it names one already.
 */
export function toolError(error: unknown, context: FailureContext = {}): SessionError {
  let mapped = browserFailure(error, context.tool);
  if (context.vocabulary !== undefined) mapped = withNextStep(mapped, context.vocabulary);
  return context.sessionId === undefined || mapped.sessionId !== undefined ? mapped : mapped.withSession(context.sessionId);
}

/**
 * INVALID_PARAMETERS for arguments a schema refused, one problem per issue: for the tool's own schema with the
 * arguments it accepts, or for the arguments another profile's tool mapped onto this one's (without that list, which
 * names the other tool's arguments).
 */
export function invalidArguments(toolName: string, error: z.ZodError, options: { accepted?: string[]; sessionId?: string } = {}): SessionError {
  const { accepted, sessionId } = options;
  const problems = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'arguments';
    return `${where}: ${issue.message}`;
  });
  const listed = accepted === undefined ? '' : ` Accepted arguments: ${accepted.join(', ') || 'none'}.`;
  return new SessionError('INVALID_PARAMETERS', `Invalid arguments for ${toolName}: ${problems.join('; ')}.${listed}`, {
    ...defined({ sessionId }),
    details: { issues: problems, ...defined({ acceptedArguments: accepted }) },
  });
}
