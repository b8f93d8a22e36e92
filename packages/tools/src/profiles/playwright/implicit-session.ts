// The implicit sessions of one client connection (the playwright profile): its own one and its named isolated contexts, each made on first use and closed with the connection.
import type { Session } from '@sessionwright/session-core';
import type { ImplicitSessionAccess, SessionAccess } from '../../framework/define-tool.js';

/**
 * A client written for a one-page browser server never names a session: each connection gets its own, created lazily
 * by its first browser call, and closed when the connection ends (over stdio: the process's one session). Calls that
 * arrive together while it is being created share the one creation.
 *
 * A connection may also name isolated contexts (`browser_tabs {action: "new", isolatedContext}`): each is a session
 * of its own, made the same way on first use, and the calls that name no session act on the context used last.
 */
export class ImplicitSession implements ImplicitSessionAccess {
  private readonly sessions: SessionAccess;
  private readonly open: () => Promise<Session>;
  /** The connection's own session (key undefined) and each named context's, in the order they were first used. */
  private readonly ids = new Map<string | undefined, string>();
  private readonly creating = new Map<string | undefined, Promise<string>>();
  /** The context the calls without a sessionId act on (undefined: the connection's own session). */
  private using: string | undefined;
  private ended = false;

  /**
   * `sessions`: the connection's own access, so its sessions are listed and counted as the connection's. `open` makes
   * each new session (default: a plain one; a server started with --state opens it from that saved state).
   */
  constructor(sessions: SessionAccess, open: () => Promise<Session> = () => sessions.create()) {
    this.sessions = sessions;
    this.open = open;
  }

  get current(): string | undefined {
    return this.ids.get(this.using);
  }

  resolve(): Promise<string> {
    return this.sessionOf(this.using);
  }

  async isolated(name: string): Promise<{ id: string; created: boolean }> {
    const existing = this.ids.get(name);
    if (existing !== undefined) return { id: existing, created: false };
    const pending = this.creating.has(name);
    const id = await this.sessionOf(name);
    return { id, created: !pending };
  }

  use(name: string | undefined): void {
    this.using = name;
  }

  contexts(): { name: string | undefined; id: string }[] {
    const own = this.ids.get(undefined);
    const named = [...this.ids].filter((entry): entry is [string, string] => entry[0] !== undefined).map(([name, id]) => ({ name, id }));
    return own === undefined ? named : [{ name: undefined, id: own }, ...named];
  }

  forget(sessionId: string): void {
    for (const [name, id] of this.ids) {
      if (id !== sessionId) continue;
      this.ids.delete(name);
      // A named context that ended is gone: calls fall back to the connection's own session.
      if (name !== undefined && this.using === name) this.using = undefined;
    }
  }

  async close(): Promise<boolean> {
    const ids = new Set(this.ids.values());
    for (const pending of this.creating.values()) {
      const id = await pending.catch(() => undefined);
      if (id !== undefined) ids.add(id);
    }
    this.ids.clear();
    this.using = undefined;
    const closed = await Promise.all(
      [...ids].map((id) =>
        this.sessions.close(id).then(
          () => true,
          // It had already ended (expired, closed by close_session): nothing is left to close.
          () => false,
        ),
      ),
    );
    return closed.includes(true);
  }

  /** The connection has ended: close its sessions and never create another. */
  async end(): Promise<void> {
    this.ended = true;
    await this.close();
  }

  /** The session of a context, made on first use; concurrent first uses share one creation. */
  private sessionOf(name: string | undefined): Promise<string> {
    const id = this.ids.get(name);
    if (id !== undefined) return Promise.resolve(id);
    let creation = this.creating.get(name);
    if (creation === undefined) {
      creation = (async () => {
        try {
          const session = await this.open();
          // The connection ended while the session was being made: nobody will ever use or close it.
          if (this.ended) {
            await this.sessions.close(session.id).catch(() => {});
            return session.id;
          }
          this.ids.set(name, session.id);
          return session.id;
        } finally {
          this.creating.delete(name);
        }
      })();
      this.creating.set(name, creation);
    }
    return creation;
  }
}
