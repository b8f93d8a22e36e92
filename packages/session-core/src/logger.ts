// A minimal logger interface; the default writes to stderr because stdout may carry a protocol.

/** Where session-core's log lines go; silent unless one is given. */
export interface Logger {
  info(message: string): void;
  /** `about` names the session a warning concerns, so a server tells only that session's client (docs/http.md). */
  warn(message: string, about?: LogSubject): void;
  debug(message: string): void;
}

/** The session a log line is about, and the identity it belongs to where the writer knows it. */
export interface LogSubject {
  sessionId: string;
  identity?: string | undefined;
}

/** A Logger that writes to stderr (stdout may carry a protocol), debug lines only when `verbose`. */
export function stderrLogger(prefix = 'sessionwright', verbose = false): Logger {
  const write = (level: string, message: string) => process.stderr.write(`[${prefix}] ${level}${message}\n`);
  return {
    info: (message) => write('', message),
    warn: (message) => write('warning: ', message),
    debug: (message) => {
      if (verbose) write('debug: ', message);
    },
  };
}

/** A Logger that drops every line: the default. */
export const silentLogger: Logger = { info() {}, warn() {}, debug() {} };

/** The first 8 characters of a session id: enough to tell sessions apart in logs without handing out the capability. */
export function shortId(sessionId: string): string {
  return `${sessionId.slice(0, 8)}…`;
}
