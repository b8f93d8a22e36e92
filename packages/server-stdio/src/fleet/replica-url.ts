// What an advertised replica address may be: `http(s)://host:port` and nothing more (no path, query, user or password).

const REPLICA_URL = /^https?:\/\/(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$/;

/** Whether `value` is an address a replica may advertise, and another replica may send a request to. */
export function isReplicaUrl(value: unknown): value is string {
  return typeof value === 'string' && REPLICA_URL.test(value);
}

/** A replica's label: the host and port of its advertise URL. */
export function labelOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
