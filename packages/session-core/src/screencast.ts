// The live picture of a session's current tab: Chromium's screencast (a JPEG frame whenever the page changes), following tab switches.
import type { CDPSession, Page } from 'playwright';
import { orAfter, systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from './clock.js';
import { browserError } from './errors.js';
import type { ViewportSize } from './person-input.js';

/** One picture of the tab. */
export interface ScreencastFrame {
  jpeg: Buffer;
  /** The page's visible area in CSS pixels, which the picture shows (scaled to at most MAX_SIDE pixels a side). */
  viewport: ViewportSize;
}

/** Where the tab is. */
export interface TabState {
  url: string;
  title: string;
}

/** What a watcher is told: every new frame, and the tab's URL and title when they change. The latest of each comes at once. */
interface ScreencastWatcher {
  frame?(frame: ScreencastFrame): void;
  tab?(state: TabState): void;
  /** The screencast cannot run (not a Chromium browser): said once, with the reason. */
  failed?(message: string): void;
}

/** How large a watcher wants its frames: the longest side in pixels and the JPEG quality (0–100). */
interface FrameSize {
  maxSide: number;
  quality: number;
}

/** What a screencast follows: the tab a session acts on, and word when that changes. */
export interface CurrentTab {
  readonly page: Page;
  onPageChange(listener: (page: Page) => void): () => void;
}

/** A frame's size unless a watcher asks for less: the longest side enough to read a page, small enough to send a few times a second. */
const DEFAULT_FRAME_SIZE: FrameSize = { maxSide: 1280, quality: 70 };
/** The title can change without a navigation (a script sets document.title): it is read again at most this often while frames come. */
const TITLE_REFRESH_MS = 1_000;
/** How often an empty title is read again on a page that sends no frames. */
const TITLE_RETRIES = 5;
/** How often a screencast is tried on a tab whose DevTools session went away as it started, and how long it waits for the tab to move on. */
const CAST_ATTEMPTS = 3;
const CAST_RETRY_WAIT_MS = 5_000;
/**
 * Frames come at most this often: an animated page would otherwise send one per paint (60 a second), costing the
 * server and every viewer for motion nobody needs to see that smoothly. A change still shows within this time.
 */
const MIN_FRAME_INTERVAL_MS = 100;

/**
 * Runs while anyone watches and stops when the last watcher leaves, so an unwatched session costs nothing. The browser
 * sends a frame when the tab's content changes (and one at the start), so a watcher sees a change within a frame's time.
 */
export class Screencast {
  private readonly watchers = new Map<ScreencastWatcher, FrameSize>();
  /** The size the running cast was started with. */
  private size: FrameSize = DEFAULT_FRAME_SIZE;
  private latest: { frame: ScreencastFrame; page: Page } | undefined;
  private tab: TabState = { url: '', title: '' };
  private cast: PageCast | undefined;
  private unfollow: (() => void) | undefined;
  /** Bumped at every switch, so a cast that finished starting after a newer switch is stopped at once. */
  private generation = 0;
  private failure: string | undefined;

  constructor(
    private readonly current: CurrentTab,
    private readonly time: { clock: Clock; timers: Timers } = { clock: systemClock, timers: systemTimers },
  ) {}

  /**
   * Starts watching: the watcher gets the latest frame and tab state at once, then every change. Returns how to stop.
   * Every watcher gets the same frames: the cast runs at the smallest size any of them asks for (`size`, default
   * DEFAULT_FRAME_SIZE), so a watcher that must keep its messages small (an MCP App) gets frames that fit.
   */
  watch(watcher: ScreencastWatcher, size: FrameSize = DEFAULT_FRAME_SIZE): () => void {
    this.watchers.set(watcher, { maxSide: Math.max(64, Math.round(size.maxSide)), quality: Math.min(100, Math.max(1, Math.round(size.quality))) });
    if (this.latest) watcher.frame?.(this.latest.frame);
    if (this.tab.url !== '') watcher.tab?.(this.tab);
    if (this.failure !== undefined) watcher.failed?.(this.failure);
    if (this.watchers.size === 1) {
      this.size = this.wanted();
      this.unfollow = this.current.onPageChange((page) => void this.follow(page));
      void this.follow(this.current.page);
    } else this.resize();
    return () => {
      if (!this.watchers.delete(watcher)) return;
      if (this.watchers.size > 0) {
        this.resize();
        return;
      }
      this.unfollow?.();
      this.unfollow = undefined;
      this.generation += 1;
      // Nobody watches: the last picture is not kept (a new watcher gets a fresh one when the screencast starts).
      this.latest = undefined;
      const cast = this.cast;
      this.cast = undefined;
      void cast?.stop();
    };
  }

  /** How many watch now. */
  get watching(): number {
    return this.watchers.size;
  }

  /** The size the watchers ask for together: the smallest side and quality among them. */
  private wanted(): FrameSize {
    const sizes = [...this.watchers.values()];
    if (sizes.length === 0) return DEFAULT_FRAME_SIZE;
    return { maxSide: Math.min(...sizes.map((size) => size.maxSide)), quality: Math.min(...sizes.map((size) => size.quality)) };
  }

  /** Restarts the cast at the watchers' size when that changed (a watcher came or left). */
  private resize(): void {
    const wanted = this.wanted();
    if (wanted.maxSide === this.size.maxSide && wanted.quality === this.size.quality) return;
    this.size = wanted;
    void this.follow(this.current.page);
  }

  /** The visible area of `page` as its latest frame showed it, if a frame of that page came. */
  viewportOf(page: Page): ViewportSize | undefined {
    return this.latest?.page === page ? this.latest.frame.viewport : undefined;
  }

  /** Stops for good (the session ended): watchers are let go without a word; the caller tells them why. */
  stop(): void {
    this.watchers.clear();
    this.unfollow?.();
    this.generation += 1;
    void this.cast?.stop();
    this.cast = undefined;
  }

  private async follow(page: Page): Promise<void> {
    const generation = ++this.generation;
    const previous = this.cast;
    this.cast = undefined;
    await previous?.stop();
    if (generation !== this.generation || page.isClosed()) return;
    // A cast that has been replaced may still deliver a frame or a title it was reading: that is not the current tab's.
    const current = () => generation === this.generation;
    const handlers = {
      frame: (frame: ScreencastFrame) => {
        if (!current()) return;
        this.latest = { frame, page };
        for (const watcher of this.watchers.keys()) watcher.frame?.(frame);
      },
      tab: (state: TabState) => {
        if (!current() || (state.url === this.tab.url && state.title === this.tab.title)) return;
        this.tab = state;
        for (const watcher of this.watchers.keys()) watcher.tab?.(state);
      },
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const cast = await startCast(page, handlers, this.size, this.time);
        if (!current()) await cast.stop();
        else this.cast = cast;
        return;
      } catch (error) {
        if (!current() || page.isClosed()) return;
        // A new tab's first navigation moves it to another renderer, which detaches a DevTools session attached
        // meanwhile ("Not attached to an active page"): a new session, once the page has moved on.
        if (attempt < CAST_ATTEMPTS) {
          cdpSessions.delete(page);
          await page.waitForLoadState('domcontentloaded', { timeout: CAST_RETRY_WAIT_MS }).catch(() => {});
          continue;
        }
        this.failure = error instanceof Error ? error.message : String(error);
        for (const watcher of this.watchers.keys()) watcher.failed?.(this.failure);
        return;
      }
    }
  }
}

interface PageCast {
  stop(): Promise<void>;
}

/** The CDP session of a tab, one per tab, shared by its screencast and a person's input. */
const cdpSessions = new WeakMap<Page, Promise<CDPSession>>();

/** The tab's CDP session; BROWSER_ERROR `unsupported` outside Chromium, which has no screencast. */
export function cdpOf(page: Page): Promise<CDPSession> {
  let cdp = cdpSessions.get(page);
  if (!cdp) {
    cdp = page
      .context()
      .newCDPSession(page)
      .catch((error: unknown) => {
        cdpSessions.delete(page);
        throw page.isClosed()
          ? error
          : browserError('unsupported', 'Watching a session live and acting on it by hand needs a Chromium-family browser.', { cause: error });
      });
    cdpSessions.set(page, cdp);
  }
  return cdp;
}

async function startCast(
  page: Page,
  on: { frame(frame: ScreencastFrame): void; tab(state: TabState): void },
  size: FrameSize,
  { clock, timers }: { clock: Clock; timers: Timers },
): Promise<PageCast> {
  const cdp = await cdpOf(page);
  let titleReadAt = 0;
  let frameAt = 0;
  let stopped = false;
  let retry: TimerHandle | undefined;
  const readTab = async (attempt = 0) => {
    titleReadAt = clock.now();
    const title = await orAfter(
      page.title().catch(() => ''),
      500,
      '',
      timers,
    );
    if (stopped || page.isClosed()) return;
    on.tab({ url: page.url(), title });
    // A title read while the page was busy may have timed out, and a still page sends no frame to read it again: try
    // again a few times.
    if (title === '' && attempt < TITLE_RETRIES) {
      timers.clearTimeout(retry);
      retry = timers.setTimeout(() => void readTab(attempt + 1), TITLE_REFRESH_MS);
    }
  };
  const onFrame = (event: { data: string; sessionId: number; metadata: { deviceWidth?: number; deviceHeight?: number } }) => {
    // The browser sends the next frame only once this one is acknowledged, so acknowledging later paces the frames.
    const ack = () => void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {});
    const now = clock.now();
    const wait = MIN_FRAME_INTERVAL_MS - (now - frameAt);
    frameAt = now;
    if (wait <= 0) ack();
    else timers.setTimeout(ack, wait);
    const width = event.metadata.deviceWidth ?? 0;
    const height = event.metadata.deviceHeight ?? 0;
    on.frame({ jpeg: Buffer.from(event.data, 'base64'), viewport: { width, height } });
    if (clock.now() - titleReadAt >= TITLE_REFRESH_MS) void readTab();
  };
  const onNavigated = (frame: ReturnType<Page['mainFrame']>) => {
    if (frame === page.mainFrame()) void readTab();
  };
  const onLoad = () => void readTab();
  cdp.on('Page.screencastFrame', onFrame);
  page.on('framenavigated', onNavigated);
  page.on('load', onLoad);
  void readTab();
  try {
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: size.quality, maxWidth: size.maxSide, maxHeight: size.maxSide, everyNthFrame: 1 });
  } catch (error) {
    stopped = true;
    timers.clearTimeout(retry);
    cdp.off('Page.screencastFrame', onFrame);
    page.off('framenavigated', onNavigated);
    page.off('load', onLoad);
    throw error;
  }
  return {
    async stop() {
      stopped = true;
      timers.clearTimeout(retry);
      cdp.off('Page.screencastFrame', onFrame);
      page.off('framenavigated', onNavigated);
      page.off('load', onLoad);
      if (!page.isClosed()) await cdp.send('Page.stopScreencast').catch(() => {});
    },
  };
}
