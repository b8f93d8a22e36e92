// The capabilities in live-view URLs: an id to find the entry and a 256-bit secret compared in constant time, each for one session, with an expiry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Session } from '@sessionwright/session-core';

/** One live-view URL's capability. */
export interface LiveToken {
  /** Finds the entry (not secret: it only says where to look). */
  readonly id: string;
  readonly session: Session;
  readonly expiresAt: number;
}

/** What a presented id and secret come to: the token, or why not (unknown or ended: 404; a wrong secret: 403). */
type TokenCheck = { ok: true; token: LiveToken } | { ok: false; status: 403 | 404 };

/** How many live-view URLs one session keeps; a new one beyond it retires the oldest. */
export const MAX_TOKENS_PER_SESSION = 16;

interface Entry extends LiveToken {
  readonly digest: Buffer;
}

export class LiveTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A new capability for `session`, valid for `ttlMs` (never past the session's end: the caller drops it then), and the
   * ids of the session's oldest tokens it retired (beyond MAX_TOKENS_PER_SESSION), whose pages are to end now.
   */
  mint(session: Session, ttlMs: number): { token: LiveToken; secret: string; retired: string[] } {
    const id = randomBytes(9).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const entry: Entry = { id, session, expiresAt: this.now() + ttlMs, digest: digest(secret) };
    this.entries.set(id, entry);
    const own = [...this.entries.values()].filter((other) => other.session === session);
    const retired = own.slice(0, Math.max(0, own.length - MAX_TOKENS_PER_SESSION)).map((old) => old.id);
    for (const old of retired) this.entries.delete(old);
    return { token: entry, secret, retired };
  }

  /**
   * The token for an id and secret. The secret is compared as a fixed-length digest in constant time, so the time an
   * answer takes says nothing about how much of a guess was right. An expired token is forgotten.
   */
  check(id: string, secret: string): TokenCheck {
    const entry = this.entries.get(id);
    if (entry === undefined) return { ok: false, status: 404 };
    if (entry.expiresAt <= this.now() || entry.session.hasEnded) {
      this.entries.delete(id);
      return { ok: false, status: 404 };
    }
    if (!timingSafeEqual(digest(secret), entry.digest)) return { ok: false, status: 403 };
    return { ok: true, token: entry };
  }

  /** Forgets every token of the session (it ended). */
  dropSession(session: Session): void {
    for (const [id, entry] of this.entries) if (entry.session === session) this.entries.delete(id);
  }

  /** The session's tokens still valid now. */
  validFor(session: Session): LiveToken[] {
    const now = this.now();
    return [...this.entries.values()].filter((entry) => entry.session === session && entry.expiresAt > now);
  }

  get size(): number {
    return this.entries.size;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
