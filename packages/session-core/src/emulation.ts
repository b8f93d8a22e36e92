// A session's emulation: the settings its emulate call changes after creation (viewport, media, geolocation, offline, headers), applied to tabs opened later too.
import type { BrowserContext, Page } from 'playwright';
import { resolveSessionOptions, type EffectiveSessionOptions, type SessionOptions } from './context-options.js';
import type { BrowserName } from './executable.js';
import { defined } from './fields.js';

/** The CSS media features only emulate changes (Playwright's page.emulateMedia), beside the session options. */
export interface MediaOverrides {
  forcedColors?: 'active' | 'none';
  contrast?: 'more' | 'no-preference';
  /** The CSS media type: `print` renders as for printing. */
  media?: 'screen' | 'print';
}

/** What the session's emulate call can change after creation. */
export type EmulationSettings = Pick<SessionOptions, 'viewport' | 'colorScheme' | 'reducedMotion' | 'geolocation' | 'offline' | 'extraHTTPHeaders'> &
  MediaOverrides;
export type EffectiveEmulation = Pick<EffectiveSessionOptions, 'colorScheme' | 'reducedMotion' | 'geolocation' | 'offline' | 'extraHTTPHeaders'> &
  MediaOverrides & {
    viewport: { width: number; height: number } | null;
  };

interface EmulationInit {
  context: BrowserContext;
  browserName: BrowserName;
  /** What the session was created with. */
  options: EffectiveSessionOptions;
  /** Headers every session of the manager sends: their values are hidden as the session's own are. */
  defaultHeaders: readonly string[];
  tabs: () => Page[];
  /** The page calls act on. */
  page: () => Page;
}

/** What emulate changed, kept for tabs opened later; and the names of the headers whose values no result shows. */
export class Emulation {
  /** Lower-case names of the headers the session was given (extraHTTPHeaders): no result shows their values. */
  private readonly givenHeaders = new Set<string>();
  /** What emulate changed, applied to tabs opened later too. */
  private changed: { viewport?: { width: number; height: number }; media?: Pick<SessionOptions, 'colorScheme' | 'reducedMotion'> & MediaOverrides } = {};
  private effective: Omit<EffectiveEmulation, 'viewport'>;

  constructor(private readonly init: EmulationInit) {
    const { colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders } = init.options;
    this.effective = { ...defined({ colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders }) };
    this.noteGivenHeaders(extraHTTPHeaders);
    for (const name of init.defaultHeaders) this.givenHeaders.add(name.toLowerCase());
  }

  /** Applies what emulate changed to a tab opened since. */
  watch(page: Page): void {
    if (this.changed.viewport || this.changed.media) void this.apply(page);
  }

  /**
   * Changes the session's settings from now on (every tab, and tabs opened later); INVALID_PARAMETERS for a bad value,
   * checked before anything changes. Answers the effective settings, header values hidden.
   */
  async emulate(settings: EmulationSettings): Promise<EffectiveEmulation> {
    const { forcedColors, contrast, media: mediaType, ...options } = settings;
    const checked = resolveSessionOptions(defined(options), this.init.browserName);
    const { viewport, colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders } = settings;
    if (viewport !== undefined) this.changed.viewport = viewport;
    const media = defined({ colorScheme, reducedMotion, forcedColors, contrast, media: mediaType });
    if (Object.keys(media).length > 0) this.changed.media = { ...this.changed.media, ...media };
    for (const page of this.init.tabs()) await this.apply(page);
    if (geolocation !== undefined) {
      await this.init.context.setGeolocation(geolocation);
      await this.init.context.grantPermissions(['geolocation']);
    }
    if (offline !== undefined) await this.init.context.setOffline(offline);
    this.noteGivenHeaders(extraHTTPHeaders);
    if (extraHTTPHeaders !== undefined) await this.init.context.setExtraHTTPHeaders(extraHTTPHeaders);
    const { viewport: _viewport, ...echo } = checked.echo;
    this.effective = { ...this.effective, ...echo, ...defined({ forcedColors, contrast, media: mediaType }) };
    return this.state();
  }

  /**
   * True for a header whose value a result must not show: one the session was given in extraHTTPHeaders, at creation, by
   * the manager's defaults or by emulate (a request a page sent carries it too), whatever its name.
   */
  hidesHeaderValue(name: string): boolean {
    return this.givenHeaders.has(name.toLowerCase());
  }

  private noteGivenHeaders(headers: Record<string, string> | undefined): void {
    for (const name of Object.keys(headers ?? {})) this.givenHeaders.add(name.toLowerCase());
  }

  /** The settings emulate can change, as they are now. */
  state(): EffectiveEmulation {
    const page = this.init.page();
    return { viewport: page.isClosed() ? (this.changed.viewport ?? null) : page.viewportSize(), ...this.effective };
  }

  private async apply(page: Page): Promise<void> {
    if (this.changed.viewport) await page.setViewportSize(this.changed.viewport).catch(() => {});
    if (this.changed.media) await page.emulateMedia(this.changed.media).catch(() => {});
  }
}
