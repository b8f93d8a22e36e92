// Turns session-core's structured next-step hints (details.next) into a sentence naming the tools of the profile in use.
import { SessionError } from '@sessionwright/session-core';
import { nextStepOf, type NextStep, defined } from '@sessionwright/session-core/parts';

/** The tool names a profile's sentences use; a second profile (other tool names) passes its own. */
export interface ToolVocabulary {
  createSession: string;
  listSessions: string;
  closeSession: string;
  snapshot: string;
  navigate: string;
}

/** The default profile's tool names. */
export const SESSIONS_VOCABULARY: ToolVocabulary = {
  createSession: 'create_session',
  listSessions: 'list_sessions',
  closeSession: 'close_session',
  snapshot: 'snapshot',
  navigate: 'navigate',
};

/** What to do next, in one sentence for the model. */
export function nextStepSentence(next: NextStep, words: ToolVocabulary): string {
  switch (next) {
    case 'new_session':
      return `Create a new session with ${words.createSession}.`;
    case 'find_session':
      return `Use a sessionId returned by ${words.createSession}, or call ${words.listSessions} to see your open sessions.`;
    case 'free_session':
      return `Close a session you no longer need (${words.closeSession}), then try again.`;
    case 'new_snapshot':
      return `Take a new snapshot (${words.snapshot}) and use a ref from it.`;
    case 'load_page':
      return `Load the page again with ${words.navigate}, then continue.`;
  }
}

/** The error with its next-step sentence appended to the message (once); errors without a hint come back as they are. */
export function withNextStep(error: SessionError, words: ToolVocabulary = SESSIONS_VOCABULARY): SessionError {
  const next = nextStepOf(error);
  if (next === undefined) return error;
  const sentence = nextStepSentence(next, words);
  if (error.message.endsWith(sentence)) return error;
  return new SessionError(error.code, `${error.message} ${sentence}`, {
    ...defined({ sessionId: error.sessionId, details: error.details }),
    cause: error.cause,
  });
}
