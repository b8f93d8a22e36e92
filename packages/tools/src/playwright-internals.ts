// The one door to Playwright's internals: the server-side twin of a client object, where Playwright runs in this process.
//
// A Playwright object used in the process that runs Playwright (launch, connectOverCDP) forwards each call to its
// server-side twin through two event-loop turns, a stack capture and protocol validation. The in-process connection
// keeps the link to that twin (`toImpl`). The fast paths (the title read, the page snapshot) call the twin directly;
// where there is none (a Playwright server reached over the wire) or it does not look as expected (a version that
// moved things), they take the public API. docs/decisions.md lists every internal used, and
// test/playwright-internals.test.ts fails if the pinned Playwright stops offering one.

/** The object's server-side twin, or undefined where it cannot be reached; callers check its shape before use. */
export function serverSide(object: object): unknown {
  try {
    const connection = (object as { _connection?: { toImpl?: (object: unknown) => unknown } })._connection;
    return connection?.toImpl?.(object);
  } catch {
    return undefined;
  }
}
