// One isolated browser session: a BrowserContext, its current Page, and a FIFO queue so calls never interleave.
import type { Browser, BrowserContext, Dialog, Page } from 'playwright';
import type { EffectiveSessionOptions } from './context-options.js';

/** A JavaScript dialog the session answered by itself, reported with the next result. */
export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
}

/** At most this many dialogs and tabs are remembered between two calls: a page that loops alert() cannot flood a result. */
const MAX_EVENTS = 50;

export interface SessionEvents {
  dialogs: DialogRecord[];
  /** URLs of tabs the page opened since the last call (the session switched to the newest). */
  openedTabs: string[];
}

export class Session {
  readonly id: string;
  readonly createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  /** The connection (or any caller-chosen owner) that created the session. */
  readonly owner: string | undefined;
  readonly context: BrowserContext;
  /** The browser this session lives in; sessions of a browser that died are gone with it. */
  readonly browser: Browser;
  /** What the session was created with, secrets left out ({} for a plain session). */
  readonly options: EffectiveSessionOptions;
  private currentPage: Page;
  private tail: Promise<unknown> = Promise.resolve();
  /** Tabs whose renderer crashed: never handed to a call again. */
  private readonly crashed = new WeakSet<Page>();
  private pendingCalls = 0;
  private events: SessionEvents = { dialogs: [], openedTabs: [] };
  /** True while the session opens a page itself to replace a closed one. */
  private replacingPage = false;

  constructor(init: {
    id: string;
    now: number;
    timeout: number;
    owner?: string;
    browser: Browser;
    context: BrowserContext;
    page: Page;
    options?: EffectiveSessionOptions;
  }) {
    this.id = init.id;
    this.createdAt = init.now;
    this.lastUsedAt = init.now;
    this.expiresAt = init.now + init.timeout;
    this.owner = init.owner;
    this.browser = init.browser;
    this.options = init.options ?? {};
    this.context = init.context;
    this.currentPage = init.page;
    this.watchPage(init.page);
    // A link with target=_blank or window.open: follow the newest tab, as a person would, and say so in the next result.
    this.context.on('page', (page) => {
      // A page the session opens itself (livePage) is not a tab the site opened; livePage watches it.
      if (page === this.currentPage || this.replacingPage) return;
      this.currentPage = page;
      this.watchPage(page);
      if (this.events.openedTabs.length < MAX_EVENTS) this.events.openedTabs.push(page.url());
    });
  }

  /** The page calls act on (the newest tab the session opened). */
  get page(): Page {
    return this.currentPage;
  }

  /** Calls queued or running on this session. */
  get busy(): boolean {
    return this.pendingCalls > 0;
  }

  /**
   * Runs `fn` after every call queued before it has settled; the only way to touch the page.
   * A page the site closed (window.close()) or that crashed is replaced by a fresh one in the same context first.
   */
  run<T>(fn: (page: Page) => Promise<T>): Promise<T> {
    this.pendingCalls += 1;
    const result = this.tail.then(async () => fn(await this.livePage()));
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result.finally(() => {
      this.pendingCalls -= 1;
    });
  }

  /** Dialogs and new tabs seen since the last call, emptied by reading. */
  takeEvents(): SessionEvents {
    const events = this.events;
    this.events = { dialogs: [], openedTabs: [] };
    return events;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => {});
  }

  private async livePage(): Promise<Page> {
    if (this.usable(this.currentPage)) return this.currentPage;
    const open = this.context.pages().filter((page) => this.usable(page));
    let page = open.at(-1);
    if (!page) {
      this.replacingPage = true;
      try {
        page = await this.context.newPage();
      } finally {
        this.replacingPage = false;
      }
      this.watchPage(page);
    }
    this.currentPage = page;
    return page;
  }

  private usable(page: Page): boolean {
    return !page.isClosed() && !this.crashed.has(page);
  }

  private watchPage(page: Page): void {
    page.on('dialog', (dialog) => void this.answerDialog(dialog));
    page.on('crash', () => {
      // The tab is unusable at once (a call may arrive before close() lands); the next call gets a fresh page in the same context.
      this.crashed.add(page);
      void page.close().catch(() => {});
    });
  }

  /**
   * Alerts and beforeunload are accepted, confirm and prompt dismissed: no dialog ever blocks a session.
   * beforeunload is accepted because dismissing it cancels the navigation the caller asked for, leaving the agent stuck on the page.
   */
  private async answerDialog(dialog: Dialog): Promise<void> {
    const type = dialog.type();
    const accept = type === 'alert' || type === 'beforeunload';
    if (this.events.dialogs.length < MAX_EVENTS) this.events.dialogs.push({ type, message: dialog.message(), action: accept ? 'accepted' : 'dismissed' });
    await (accept ? dialog.accept() : dialog.dismiss()).catch(() => {});
  }
}
