// A minimal logger interface; the default writes to stderr because stdout may carry a protocol.

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

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

export const silentLogger: Logger = { info() {}, warn() {}, debug() {} };

/** The first 8 characters of a session id: enough to tell sessions apart in logs without handing out the capability. */
export function shortId(sessionId: string): string {
  return `${sessionId.slice(0, 8)}…`;
}
