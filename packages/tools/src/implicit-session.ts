// The implicit session of one client connection (the playwright profile): made on first use, closed with the connection.
import type { ImplicitSessionAccess, SessionAccess } from './define-tool.js';

/**
 * A client written for a one-page browser server never names a session: each connection gets its own, created lazily
 * by its first browser call, and closed when the connection ends (over stdio: the process's one session). Calls that
 * arrive together while it is being created share the one creation.
 */
export class ImplicitSession implements ImplicitSessionAccess {
  private readonly sessions: SessionAccess;
  private id: string | undefined;
  private creating: Promise<string> | undefined;
  private ended = false;

  /** `sessions`: the connection's own access, so the session is listed and counted as the connection's. */
  constructor(sessions: SessionAccess) {
    this.sessions = sessions;
  }

  get current(): string | undefined {
    return this.id;
  }

  resolve(): Promise<string> {
    if (this.id !== undefined) return Promise.resolve(this.id);
    this.creating ??= (async () => {
      try {
        const session = await this.sessions.create();
        // The connection ended while the session was being made: nobody will ever use or close it.
        if (this.ended) {
          await this.sessions.close(session.id).catch(() => {});
          return session.id;
        }
        this.id = session.id;
        return session.id;
      } finally {
        this.creating = undefined;
      }
    })();
    return this.creating;
  }

  forget(sessionId: string): void {
    if (this.id === sessionId) this.id = undefined;
  }

  async close(): Promise<boolean> {
    const id = this.id ?? (await this.creating?.catch(() => undefined));
    if (id === undefined) return false;
    if (this.id === id) this.id = undefined;
    try {
      await this.sessions.close(id);
      return true;
    } catch {
      // It had already ended (expired, closed by close_session): nothing is left to close.
      return false;
    }
  }

  /** The connection has ended: close the session and never create another. */
  async end(): Promise<void> {
    this.ended = true;
    await this.close();
  }
}
