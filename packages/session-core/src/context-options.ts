// Per-session identity: the schema of the options a session is created with (the one the tools layer shows), the
// checks a schema cannot make, the Playwright context options they become, and the secret-free echo.
import type { BrowserContext, BrowserContextOptions } from 'playwright';
import { z } from 'zod';
import { editDistance } from './edit-distance.js';
import { SessionError, type ErrorDetails } from './errors.js';
import type { BrowserName } from './executable.js';
import { playwright } from './load-playwright.js';
import { defined } from './fields.js';

/**
 * The page's static resources (its furniture, not its traffic): what a session can refuse to load (blockResources), and
 * what request lists leave out unless asked.
 */
const STATIC_RESOURCE_TYPES = ['image', 'font', 'media', 'stylesheet'] as const;
type StaticResourceType = (typeof STATIC_RESOURCE_TYPES)[number];

/** True for a resource type that is the page's furniture (image, font, media, stylesheet) rather than its traffic. */
export function isStaticResource(resourceType: string): resourceType is StaticResourceType {
  return (STATIC_RESOURCE_TYPES as readonly string[]).includes(resourceType);
}

/** What replaces a header value in an echo. */
const HIDDEN = '(hidden)';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The longest value each kind of option takes: roomy for any real use, and small enough that nothing a caller sends
 * costs the server more than reading it (a long name is refused before it is compared to any list).
 */
const LIMIT = {
  /** A device, locale, time zone or permission name. */
  name: 100,
  /** A user agent, a proxy address or bypass list, an origin, a cookie's domain or path. */
  text: 2_048,
  /** A user name or password. */
  credential: 1_024,
  headerName: 256,
  headerValue: 8_192,
  headers: 100,
  permissions: 50,
  /** A cookie's name or value: browsers keep at most 4 KiB a cookie. */
  cookie: 4_096,
  cookies: 3_000,
  origins: 1_000,
  /** localStorage items of one origin, and the length of one name or value (browsers give an origin about 5 MB). */
  storageItems: 10_000,
  storageName: 1_024,
  storageValue: 5_000_000,
} as const;

/** A string that is not only white space (a schema's min(1) lets "  " through, and Playwright would take it as given). */
const notBlank = (text: string) => text.trim() !== '';
const nonBlankString = (max: number) => z.string().min(1).max(max).refine(notBlank, 'Must not be blank.');

const viewportSchema = z.strictObject({
  width: z.number().int().min(1).max(10_000),
  height: z.number().int().min(1).max(10_000),
});

const geolocationSchema = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().min(0).optional(),
});

const colorSchemeSchema = z.enum(['light', 'dark', 'no-preference']);
const reducedMotionSchema = z.enum(['reduce', 'no-preference']);
const blockResourcesSchema = z
  .array(
    z.enum(STATIC_RESOURCE_TYPES, {
      error: (issue) => `Cannot block ${quote(issue.input)}: blockResources takes ${STATIC_RESOURCE_TYPES.join(', ')}.`,
    }),
  )
  .max(STATIC_RESOURCE_TYPES.length);

/**
 * Playwright's storage state as an object (never a file path: a caller must not make the server read its disk), in two
 * forms of one shape: `bounded` (what a caller may give) limits every string and list, while what a browser gives back
 * (an export) is shown as it is, however many cookies the sites set.
 */
function storageStateSchemaOf(bounded: boolean) {
  const text = (max: number) => (bounded ? z.string().max(max) : z.string());
  const list = <T extends z.ZodType>(item: T, max: number) => (bounded ? z.array(item).max(max) : z.array(item));
  /** A cookie as a storage state export gives it; extra fields a newer export may carry are ignored. */
  const cookie = z.looseObject({
    name: text(LIMIT.cookie).describe('Cookie name.'),
    value: text(LIMIT.cookie).describe('Cookie value.'),
    domain: text(LIMIT.text).refine(notBlank, 'Must not be empty.').describe('Domain, e.g. "example.com" or ".example.com" for subdomains too.'),
    path: text(LIMIT.text).refine(notBlank, 'Must not be empty.').describe('Path, usually "/".'),
    expires: z.number().optional().describe('Unix time in seconds; -1 (default) for a session cookie.'),
    httpOnly: z.boolean().optional().describe('Default false.'),
    secure: z.boolean().optional().describe('Default false.'),
    sameSite: z.enum(['Strict', 'Lax', 'None']).optional().describe('Default "Lax".'),
  });
  const origin = z.looseObject({
    origin: text(LIMIT.text).describe('An origin such as "https://example.com".'),
    localStorage: list(z.object({ name: text(LIMIT.storageName), value: text(LIMIT.storageValue) }), LIMIT.storageItems).describe(
      'localStorage items of that origin.',
    ),
  });
  return z.looseObject(
    {
      cookies: list(cookie, LIMIT.cookies).optional().describe('Cookies of the state (default none).'),
      origins: list(origin, LIMIT.origins).optional().describe('localStorage per origin (default none).'),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'Expected an object { cookies, origins } as a storage state export gives it (a file path is not accepted).' : undefined,
    },
  );
}

/** A storage state a session may start from (create_session's storageState). */
const storageStateSchema = storageStateSchemaOf(true);
/** A storage state as a session's export gives it back, to be given to a new session. */
export const exportedStorageStateSchema = storageStateSchemaOf(false);

const extraHTTPHeadersSchema = z.record(z.string().max(LIMIT.headerName), z.string().max(LIMIT.headerValue)).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > LIMIT.headers) ctx.addIssue({ code: 'custom', message: `At most ${LIMIT.headers} headers.` });
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid HTTP header name.` });
    else if (/[\r\n\0]/.test(value))
      ctx.addIssue({ code: 'custom', path: [name], message: `The value of header "${name}" must be a string without line breaks.` });
  }
});

/** A session's options, every one optional: with none, the session may come ready-made from the warm pool. */
export const sessionOptionsShape = {
  device: nonBlankString(LIMIT.name).optional().describe('e.g. "iPhone 15".'),
  viewport: viewportSchema.optional().describe('CSS pixels.'),
  userAgent: nonBlankString(LIMIT.text).optional().describe('User-Agent.'),
  locale: nonBlankString(LIMIT.name).optional().describe('e.g. "de-DE".'),
  timezoneId: nonBlankString(LIMIT.name).optional().describe('e.g. "Europe/Berlin".'),
  geolocation: geolocationSchema.optional().describe('Grants permission.'),
  permissions: z.array(z.string().max(LIMIT.name)).max(LIMIT.permissions).optional().describe('e.g. ["notifications"].'),
  colorScheme: colorSchemeSchema.optional().describe('prefers-color-scheme.'),
  reducedMotion: reducedMotionSchema.optional().describe('prefers-reduced-motion.'),
  extraHTTPHeaders: extraHTTPHeadersSchema.optional().describe('On each request.'),
  httpCredentials: z
    .strictObject({
      username: z.string().max(LIMIT.credential),
      password: z.string().max(LIMIT.credential),
    })
    .optional()
    .describe('HTTP auth.'),
  offline: z.boolean().optional().describe('Offline.'),
  javaScriptEnabled: z.boolean().optional().describe('Default true.'),
  ignoreHTTPSErrors: z.boolean().optional().describe('Ignore TLS errors.'),
  proxy: z
    .strictObject({
      server: nonBlankString(LIMIT.text),
      bypass: z.string().max(LIMIT.text).optional(),
      username: z.string().max(LIMIT.credential).optional(),
      password: z.string().max(LIMIT.credential).optional(),
    })
    .optional()
    .describe('Proxy.'),
  storageState: storageStateSchema.optional().describe('Exported state.'),
  blockResources: blockResourcesSchema.optional().describe('Never loaded.'),
  recordVideo: z.boolean().optional().describe('Tab videos.'),
};

const sessionOptionsSchema = z.strictObject(sessionOptionsShape);

/** What a session may be created with; every field optional, each explicit one overrides what `device` set. */
export type SessionOptions = z.input<typeof sessionOptionsSchema>;

/** The options a session runs with, as results and lists show them: device values filled in, secrets left out. */
export const effectiveOptionsSchema = z
  .object({
    device: z.string().optional(),
    viewport: z.object({ width: z.number(), height: z.number() }).optional(),
    userAgent: z.string().optional(),
    deviceScaleFactor: z.number().optional(),
    isMobile: z.boolean().optional(),
    hasTouch: z.boolean().optional(),
    locale: z.string().optional(),
    timezoneId: z.string().optional(),
    geolocation: z.object({ latitude: z.number(), longitude: z.number(), accuracy: z.number().optional() }).optional(),
    permissions: z.array(z.string()).optional(),
    colorScheme: colorSchemeSchema.optional(),
    reducedMotion: reducedMotionSchema.optional(),
    extraHTTPHeaders: z.record(z.string(), z.string()).optional().describe('The header names; every value reads "(hidden)".'),
    httpCredentials: z.object({ username: z.string() }).optional().describe('The password is not shown.'),
    offline: z.boolean().optional(),
    javaScriptEnabled: z.boolean().optional(),
    ignoreHTTPSErrors: z.boolean().optional(),
    proxy: z.object({ server: z.string(), bypass: z.string().optional() }).optional().describe('Credentials are not shown.'),
    storageState: z
      .object({
        cookies: z.array(z.object({ name: z.string(), domain: z.string(), path: z.string() }).loose()),
        origins: z.array(z.object({ origin: z.string(), localStorage: z.array(z.object({ name: z.string() })) })),
      })
      .optional()
      .describe('Which cookies and localStorage keys the session started with; no values.'),
    blockResources: z.array(z.enum(STATIC_RESOURCE_TYPES)).optional(),
    recordVideo: z.boolean().optional(),
  })
  .describe('The options the session runs with ({} for a plain session); secrets are left out.');

export type EffectiveSessionOptions = z.infer<typeof effectiveOptionsSchema>;

/** Playwright's storage state as an object, complete, as a context takes it. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;
type StoredCookie = StorageState['cookies'][number];

/** Options checked and turned into what Playwright takes. */
export interface ResolvedSessionOptions {
  contextOptions: BrowserContextOptions;
  blockResources: StaticResourceType[];
  /** Whether the session records a video of each tab from its creation (the video tool's recording, in its folder's videos/). */
  recordVideo: boolean;
  echo: EffectiveSessionOptions;
}

const SESSION_OPTION_NAMES = Object.keys(sessionOptionsShape);

/**
 * The permission names each engine grants (Playwright's own tables); anything else makes newContext fail after the
 * browser started opening, so it is refused before.
 */
const PERMISSIONS: Record<BrowserName, readonly string[]> = {
  chromium: [
    'geolocation',
    'midi',
    'midi-sysex',
    'notifications',
    'camera',
    'microphone',
    'background-sync',
    'ambient-light-sensor',
    'accelerometer',
    'gyroscope',
    'magnetometer',
    'clipboard-read',
    'clipboard-write',
    'payment-handler',
    'storage-access',
    'local-fonts',
    'local-network-access',
    'screen-wake-lock',
  ],
  firefox: ['geolocation', 'persistent-storage', 'push', 'notifications', 'screen-wake-lock', 'local-network-access'],
  webkit: ['geolocation', 'notifications', 'clipboard-read', 'screen-wake-lock', 'camera', 'microphone'],
};

const PROXY_SCHEMES = ['http:', 'https:', 'socks5:'];

/** True when `input` asks for anything (an empty object is the same as no options: such a session may come from the warm pool). */
export function hasSessionOptions(input: unknown): boolean {
  return input !== undefined && !(isPlainObject(input) && Object.values(input).every((value) => value === undefined));
}

/**
 * Checks every option before anything opens and builds the context options (device first, explicit options over
 * it) and the echo. Throws INVALID_PARAMETERS naming the option, with `details.option`.
 */
export function resolveSessionOptions(input: unknown, browserName: BrowserName = 'chromium'): ResolvedSessionOptions {
  const options = checkSessionOptions(input, browserName);
  const device = options.device === undefined ? undefined : deviceDescriptor(options.device);
  const { storageState, blockResources = [], recordVideo = false, device: _device, ...explicit } = options;
  const contextOptions: BrowserContextOptions = {
    ...device,
    ...explicit,
    ...defined({ storageState }),
  };
  return { contextOptions, blockResources, recordVideo, echo: echoSessionOptions(options, device) };
}

/**
 * The options as a result may show them: what the device set, overridden by explicit options, without any secret. A
 * header's value is never shown, only its name: no rule on names can tell which values are credentials (X-JWT,
 * X-Signature, a vendor's key header).
 */
function echoSessionOptions(options: CheckedOptions, device: DeviceSettings | undefined): EffectiveSessionOptions {
  const { proxy, httpCredentials, storageState, extraHTTPHeaders, ...plain } = options;
  return {
    ...(device === undefined ? {} : { device: options.device, ...device }),
    ...plain,
    ...(extraHTTPHeaders === undefined ? {} : { extraHTTPHeaders: Object.fromEntries(Object.keys(extraHTTPHeaders).map((name) => [name, HIDDEN])) }),
    ...(httpCredentials === undefined ? {} : { httpCredentials: { username: httpCredentials.username } }),
    ...(proxy === undefined ? {} : { proxy: { server: proxy.server, ...defined({ bypass: proxy.bypass }) } }),
    ...(storageState === undefined
      ? {}
      : {
          storageState: {
            cookies: storageState.cookies.map(({ value: _value, ...cookie }) => cookie),
            origins: storageState.origins.map(({ origin, localStorage }) => ({ origin, localStorage: localStorage.map(({ name }) => ({ name })) })),
          },
        }),
  };
}

/** Context options only a server-wide default sets, beside the session options. */
const defaultOnlyShape = {
  deviceScaleFactor: z.number().gt(0).max(10).optional(),
  isMobile: z.boolean().optional(),
  hasTouch: z.boolean().optional(),
  screen: viewportSchema.optional(),
  serviceWorkers: z.enum(['allow', 'block']).optional(),
  baseURL: nonBlankString(LIMIT.text)
    .refine((base) => URL.canParse(base), 'Must be an absolute URL such as https://example.com/.')
    .optional(),
  bypassCSP: z.boolean().optional(),
  contrast: z.enum(['no-preference', 'more']).optional(),
  forcedColors: z.enum(['active', 'none']).optional(),
};

/**
 * What every session of a manager starts with, under its own options (a server's flags, e.g. the playwright profile's
 * --viewport-size or --init-script): the session options, the device fields one by one, a few context options only a
 * server-wide default sets, page scripts, and which origins the pages may request.
 */
export const sessionDefaultsSchema = z.strictObject({
  ...sessionOptionsShape,
  ...defaultOnlyShape,
  /** Script sources every page runs before its own (Playwright's addInitScript). */
  initScripts: z.array(z.string()).optional(),
  /** When not empty, the pages' requests may go only to these origins; the others fail as blocked by the client. */
  allowedOrigins: z.array(z.string().max(LIMIT.text)).optional(),
  /** The pages' requests never go to these origins (checked before allowedOrigins). */
  blockedOrigins: z.array(z.string().max(LIMIT.text)).optional(),
});

/** What every session of a manager starts with (SessionManagerOptions.sessionDefaults), as sessionDefaultsSchema checks it. */
export type SessionDefaults = z.input<typeof sessionDefaultsSchema>;

const SESSION_DEFAULT_NAMES = Object.keys(sessionDefaultsSchema.shape);

/** Session defaults checked and turned into what Playwright takes. */
export interface ResolvedSessionDefaults {
  contextOptions: BrowserContextOptions;
  blockResources: StaticResourceType[];
  initScripts: string[];
  allowedOrigins: OriginRule[];
  blockedOrigins: OriginRule[];
}

/** One entry of allowedOrigins or blockedOrigins: `https://example.com:8443`, `http://localhost:*` (any port) or `example.com` (any scheme, default port). */
export interface OriginRule {
  scheme: string | undefined;
  host: string;
  /** '' for the scheme's default port, '*' for any. */
  port: string;
}

/**
 * Checks session defaults as create checks a session's options (INVALID_PARAMETERS naming the option, never quoting a
 * value), and builds what the manager applies.
 */
export function resolveSessionDefaults(input: unknown, browserName: BrowserName = 'chromium'): ResolvedSessionDefaults {
  if (input === undefined) return { contextOptions: {}, blockResources: [], initScripts: [], allowedOrigins: [], blockedOrigins: [] };
  const parsed = sessionDefaultsSchema.safeParse(input);
  if (!parsed.success) throw schemaProblem(parsed.error, SESSION_DEFAULT_NAMES);
  const { initScripts = [], allowedOrigins = [], blockedOrigins = [], ...options } = parsed.data;
  const shared = Object.fromEntries(Object.entries(options).filter(([key]) => key in sessionOptionsShape));
  const extra: BrowserContextOptions = Object.fromEntries(Object.entries(options).filter(([key, value]) => key in defaultOnlyShape && value !== undefined));
  const { contextOptions, blockResources } = resolveSessionOptions(shared, browserName);
  return {
    // Explicit fields over what a device set, as for a session's own options.
    contextOptions: { ...contextOptions, ...extra },
    blockResources,
    initScripts,
    allowedOrigins: allowedOrigins.map((rule, index) => originRuleOf(rule, 'allowedOrigins', index)),
    blockedOrigins: blockedOrigins.map((rule, index) => originRuleOf(rule, 'blockedOrigins', index)),
  };
}

/** `https://example.com:8443`, `http://localhost:*` or a bare `example.com`. */
function originRuleOf(rule: string, option: string, index: number): OriginRule {
  const problem = () =>
    invalid(option, `${option}[${index}] is not an origin: write https://example.com, https://example.com:8443, http://localhost:* (any port) or example.com.`);
  const anyPort = /^([a-z][a-z0-9+.-]*):\/\/([^/:]+):\*$/i.exec(rule);
  if (anyPort) return { scheme: `${anyPort[1]?.toLowerCase()}:`, host: (anyPort[2] ?? '').toLowerCase(), port: '*' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rule)) {
    let url: URL;
    try {
      url = new URL(rule);
    } catch {
      throw problem();
    }
    if (url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) throw problem();
    return { scheme: url.protocol, host: url.hostname, port: url.port };
  }
  if (!/^[a-z0-9.-]+$/i.test(rule)) throw problem();
  return { scheme: undefined, host: rule.toLowerCase(), port: '' };
}

function matchesOrigin(url: URL, rule: OriginRule): boolean {
  return (rule.scheme === undefined || rule.scheme === url.protocol) && rule.host === url.hostname && (rule.port === '*' || rule.port === url.port);
}

/**
 * Applies the defaults that are not context options: page scripts, and a route that fails requests to origins the
 * defaults rule out. The route exists only when there are rules: routing makes Playwright intercept every request and
 * turns the HTTP cache off, which the sessions of a server without rules must not pay for. A session's own
 * blockResources route, added after, runs first and falls back to it.
 */
export async function applySessionDefaults(context: BrowserContext, defaults: ResolvedSessionDefaults): Promise<void> {
  for (const content of defaults.initScripts) await context.addInitScript({ content });
  const { allowedOrigins, blockedOrigins } = defaults;
  if (allowedOrigins.length === 0 && blockedOrigins.length === 0) return;
  await context.route('**/*', (route) => {
    let url: URL;
    try {
      url = new URL(route.request().url());
    } catch {
      return route.fallback();
    }
    const blocked = blockedOrigins.some((rule) => matchesOrigin(url, rule));
    const allowed = allowedOrigins.length === 0 || allowedOrigins.some((rule) => matchesOrigin(url, rule));
    return blocked || !allowed ? route.abort('blockedbyclient') : route.fallback();
  });
}

/**
 * Makes the context refuse the given resource types. Only sessions that ask for it get a route: routing makes
 * Playwright intercept every request and turns the HTTP cache off, which the other sessions must not pay for.
 */
export async function blockResourceTypes(context: BrowserContext, types: readonly StaticResourceType[]): Promise<void> {
  if (types.length === 0) return;
  const blocked = new Set<string>(types);
  await context.route('**/*', (route) => (blocked.has(route.request().resourceType()) ? route.abort('blockedbyclient') : route.fallback()));
}

/** Every name `device` accepts: Playwright's device list, in its own order. */
export function deviceNames(): string[] {
  return Object.keys(playwright().devices);
}

/** The part of a Playwright device descriptor a context takes. */
interface DeviceSettings {
  viewport: { width: number; height: number };
  userAgent: string;
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

function deviceDescriptor(name: string): DeviceSettings {
  const descriptor = playwright().devices[name];
  if (!descriptor) throw unknownDevice(name);
  // defaultBrowserType and screen are left to the browser in use.
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = descriptor;
  return { viewport: { ...viewport }, userAgent, deviceScaleFactor, isMobile, hasTouch };
}

function unknownDevice(name: string): SessionError {
  const suggestions = closeNames(name, deviceNames(), 5);
  return invalid(
    'device',
    `Unknown device "${name}". Close names: ${suggestions.map((s) => `"${s}"`).join(', ')}. Use a name from Playwright's device list, as written.`,
    {
      suggestions,
    },
  );
}

/** The `count` names nearest to `wanted`, by edit distance on lower case; landscape variants only if asked for. */
function closeNames(wanted: string, names: readonly string[], count: number): string[] {
  const target = wanted.trim().toLowerCase();
  const landscape = target.includes('landscape');
  return names
    .filter((name) => landscape || !name.endsWith(' landscape'))
    .map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, count)
    .map(({ name }) => name);
}

/** Options after checking: the storage state complete, as Playwright takes it. */
type CheckedOptions = Omit<z.output<typeof sessionOptionsSchema>, 'storageState' | 'blockResources'> & {
  storageState?: StorageState;
  blockResources?: StaticResourceType[];
};

/** The schema first, then what it cannot check (names from Playwright's lists, time zones, locales, proxy URLs). */
function checkSessionOptions(input: unknown, browserName: BrowserName): CheckedOptions {
  if (input === undefined) return {};
  const parsed = sessionOptionsSchema.safeParse(input);
  if (!parsed.success) throw schemaProblem(parsed.error);
  const { storageState, blockResources, ...options } = parsed.data;
  if (options.device !== undefined) deviceDescriptor(options.device);
  if (options.locale !== undefined) checkLocale(options.locale);
  if (options.timezoneId !== undefined) checkTimezone(options.timezoneId);
  if (options.permissions !== undefined) checkPermissions(options.permissions, browserName);
  if (options.proxy !== undefined) checkProxy(options.proxy);
  return {
    ...options,
    ...(storageState === undefined ? {} : { storageState: completeStorageState(storageState) }),
    ...(blockResources === undefined ? {} : { blockResources: [...new Set(blockResources)] }),
  };
}

/** A storage state given to a running session (a file or an object): checked and completed as create_session's is. */
export function checkStorageState(input: unknown): StorageState {
  return checkSessionOptions({ storageState: input }, 'chromium').storageState ?? { cookies: [], origins: [] };
}

/** The first problem the schema found, as INVALID_PARAMETERS with `details.option`; never quoting a value it refused. */
function schemaProblem(error: z.ZodError, known: readonly string[] = SESSION_OPTION_NAMES): SessionError {
  const issues = [...error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys' && b.path.length === 0) - Number(a.code === 'unrecognized_keys' && a.path.length === 0),
  );
  const [issue] = issues;
  if (issue === undefined) return invalid(undefined, 'Invalid session options.');
  const where = pathText(issue.path);
  const option = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
  if (issue.code === 'unrecognized_keys') {
    if (issue.path.length === 0) {
      return invalid(undefined, `Unknown session option ${issue.keys.map((key) => `"${key}"`).join(', ')}. Known options: ${known.join(', ')}.`, {
        unknownOptions: issue.keys,
        knownOptions: [...known],
      });
    }
    return invalid(option, `Unknown field ${issue.keys.map((key) => `"${where}.${key}"`).join(', ')}.`);
  }
  if (issue.code === 'invalid_type') {
    if (issue.path.length === 0) return invalid(undefined, 'Session options must be an object.');
    if (issue.message.startsWith('Invalid input')) return invalid(option, `${where} must be ${EXPECTED[issue.expected] ?? issue.expected}.`);
  }
  return invalid(option, `${where}: ${issue.message}`);
}

const EXPECTED: Partial<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

/** An issue's path as a reader writes it: viewport.width, storageState.cookies[0].domain. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

function checkLocale(locale: string): void {
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    throw invalid('locale', `"${locale}" is not a valid locale. Use a BCP 47 language tag such as "en-US", "de-DE" or "ja".`);
  }
}

function checkTimezone(timezoneId: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezoneId });
  } catch {
    throw invalid('timezoneId', `"${timezoneId}" is not a time zone. Use an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`);
  }
}

function checkPermissions(permissions: readonly string[], browserName: BrowserName): void {
  const allowed = PERMISSIONS[browserName];
  const unknown = permissions.filter((permission) => !allowed.includes(permission));
  if (unknown.length > 0) {
    throw invalid('permissions', `Unknown permission ${unknown.map((p) => `"${p}"`).join(', ')} for ${browserName}. Known: ${allowed.join(', ')}.`, {
      unknownPermissions: unknown,
      knownPermissions: [...allowed],
    });
  }
}

function checkProxy(proxy: { server: string; username?: string | undefined; password?: string | undefined }): void {
  const problem = proxyServerProblem(proxy.server);
  if (problem) {
    throw invalid('proxy', `proxy.server is not a proxy URL: ${problem}. Write it as http://host:port, https://host:port or socks5://host:port.`);
  }
  if (/^socks5:/i.test(proxy.server) && (proxy.username !== undefined || proxy.password !== undefined)) {
    throw invalid('proxy', 'A socks5 proxy cannot take a username and password in the browser; use an http or https proxy for that.');
  }
}

/** Why `server` is not a usable proxy address, or undefined when it is. A bare host:port means http, as in Playwright. */
function proxyServerProblem(server: string): string | undefined {
  if (/\s/.test(server)) return 'it contains white space';
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(server);
  let url: URL;
  try {
    url = new URL(hasScheme ? server : `http://${server}`);
  } catch {
    return 'it cannot be parsed';
  }
  if (!PROXY_SCHEMES.includes(url.protocol)) return `the scheme "${url.protocol.slice(0, -1)}" is not http, https or socks5`;
  if (url.hostname === '') return 'it has no host';
  // A password in the URL would be echoed with the server; it belongs in proxy.username/proxy.password.
  if (url.username !== '' || url.password !== '') return 'it carries credentials (give them as proxy.username and proxy.password)';
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') return 'it has a path, query or fragment';
  return undefined;
}

/** A storage state as Playwright takes it: the cookie flags a hand-written state leaves out default as in a browser. */
function completeStorageState(state: z.output<typeof storageStateSchema>): StorageState {
  return {
    cookies: (state.cookies ?? []).map(
      (cookie): StoredCookie => ({
        name: cookie.name,
        value: cookie.value,
        domain: cookie.domain,
        path: cookie.path,
        expires: cookie.expires ?? -1,
        httpOnly: cookie.httpOnly ?? false,
        secure: cookie.secure ?? false,
        sameSite: cookie.sameSite ?? 'Lax',
      }),
    ),
    origins: (state.origins ?? []).map(({ origin, localStorage }) => ({ origin, localStorage: localStorage.map(({ name, value }) => ({ name, value })) })),
  };
}

/** A value quoted in an error, cut short: the caller sees which one it was without getting its own megabytes back. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(option: string | undefined, message: string, details: ErrorDetails = {}): SessionError {
  return new SessionError('INVALID_PARAMETERS', message, { details: { ...defined({ option }), ...details } });
}
