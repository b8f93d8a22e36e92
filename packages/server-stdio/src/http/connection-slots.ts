// How many MCP connections are open over HTTP and whose: --max-connections in all, --max-connections-per-client each.

/** One connection as the slots see it. */
export interface SlotHolder {
  /** Whose share it counts against (an identity, or a remote address); undefined: only the total bounds it. */
  readonly client: string | undefined;
  /**
   * Since when it has had no open stream and no request in flight (undefined while it has one). A dormant connection
   * holds no slot: it stays resumable until its idle timeout, but a new connection that needs room ends it first.
   */
  dormantSince: number | undefined;
  /** Ends the connection to make room for a new one. */
  evict(): void;
}

/** Why a new connection was refused: every slot is live, or its client already holds its share. */
export type SlotRefusal = 'full' | 'client';

export class ConnectionSlots {
  readonly max: number;
  readonly perClient: number;
  private readonly holders = new Set<SlotHolder>();

  constructor(max: number, perClient: number) {
    this.max = max;
    this.perClient = perClient;
  }

  /** Registers a new connection (live), or says why it cannot open; room is made by ending the longest-dormant one. */
  take(holder: SlotHolder): SlotRefusal | undefined {
    if (holder.client !== undefined && this.liveOf(holder.client) >= this.perClient) return 'client';
    if (this.holders.size >= this.max) {
      let oldest: SlotHolder | undefined;
      for (const candidate of this.holders) {
        if (candidate.dormantSince !== undefined && (oldest?.dormantSince === undefined || candidate.dormantSince < oldest.dormantSince)) oldest = candidate;
      }
      if (oldest === undefined) return 'full';
      this.holders.delete(oldest);
      oldest.evict();
    }
    this.holders.add(holder);
    return undefined;
  }

  /** The connection has ended (or never opened): its slot is free. */
  release(holder: SlotHolder): void {
    this.holders.delete(holder);
  }

  /** Connections open now, dormant ones included. */
  get size(): number {
    return this.holders.size;
  }

  private liveOf(client: string): number {
    let live = 0;
    for (const holder of this.holders) if (holder.client === client && holder.dormantSince === undefined) live += 1;
    return live;
  }
}

/** --max-connections-per-client when it is not given: a quarter of --max-connections, at least one. */
export function defaultPerClient(maxConnections: number): number {
  return Math.max(1, Math.floor(maxConnections / 4));
}
