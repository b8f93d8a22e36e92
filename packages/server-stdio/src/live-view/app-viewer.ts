// One MCP App watching a session: the latest frame, tab and failure its screencast sent, and the wait of a frame call.
import type { Session, TimerHandle } from '@sessionwright/session-core';

/** An MCP App's frames: small enough for a host's inline box and its message limits, large enough for its fullscreen. */
const APP_FRAME_SIZE = { maxSide: 800, quality: 50 };

/** One MCP App showing the session: it polls for frames through its tools, so it is known by its calls alone. */
export interface AppViewer {
  readonly id: string;
  /** Whose session it watches: app viewers count against their identity's share, as live pages do. */
  readonly identity: string;
  /** The latest frame the screencast sent, and its number. */
  jpeg: Buffer | undefined;
  width: number;
  height: number;
  cursor: number;
  url: string;
  title: string;
  failure: string | undefined;
  /** When its last frame call was answered (the poll rate's bound). */
  answeredAt: number;
  /** Ends a frame call that waits for a change. */
  wake: (() => void) | undefined;
  idle: TimerHandle | undefined;
  stopWatching(): void;
}

/** A new app viewer `id` of `identity`, watching the session's screencast until its stopWatching(). */
export function watchApp(session: Session, id: string, identity: string): AppViewer {
  const app: AppViewer = {
    id,
    identity,
    jpeg: undefined,
    width: 0,
    height: 0,
    cursor: 0,
    // The tab's URL until the screencast says more (with the title).
    url: session.page.isClosed() ? '' : session.page.url(),
    title: '',
    failure: undefined,
    answeredAt: 0,
    wake: undefined,
    idle: undefined,
    stopWatching: () => {},
  };
  app.stopWatching = session.control.screencast.watch(
    {
      frame: (frame) => {
        app.jpeg = frame.jpeg;
        app.cursor += 1;
        app.width = frame.viewport.width;
        app.height = frame.viewport.height;
        app.wake?.();
      },
      tab: (state) => {
        app.url = state.url;
        app.title = state.title;
        app.wake?.();
      },
      failed: (message) => {
        app.failure = message;
        app.wake?.();
      },
    },
    APP_FRAME_SIZE,
  );
  return app;
}

/** Waits `ms`, or less when the call is cancelled or (with `untilChange`) a frame or the control changes. */
export function pauseApp(app: AppViewer, ms: number, signal: AbortSignal, untilChange: boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      if (app.wake === done) app.wake = undefined;
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
    if (untilChange) {
      app.wake?.();
      app.wake = done;
    }
  });
}
