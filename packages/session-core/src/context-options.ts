// Per-session identity: checks the options a session is created with, builds its Playwright context options, and makes the secret-free echo.
import type { BrowserContext, BrowserContextOptions } from 'playwright';
import { SessionError, type ErrorDetails } from './errors.js';
import type { BrowserName } from './executable.js';
import { playwright } from './load-playwright.js';

/** Resource types a session can refuse to load (the crawler's speed-up). */
export const BLOCKABLE_RESOURCES = ['image', 'font', 'media', 'stylesheet'] as const;
export type BlockableResource = (typeof BLOCKABLE_RESOURCES)[number];

/** Playwright's storage state as an object (never a file path: a caller must not make the server read its disk). */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;
type StoredCookie = StorageState['cookies'][number];
type CookieKey = 'name' | 'value' | 'domain' | 'path';

/** A storage state as a caller may give it: an export as it is, or a hand-written one where the cookie flags default as in a browser. */
export interface StorageStateInput {
  cookies?: (Pick<StoredCookie, CookieKey> & Partial<Omit<StoredCookie, CookieKey>>)[];
  origins?: StorageState['origins'];
}

/** What a session may be created with; every field optional, each explicit one overrides what `device` set. */
export interface SessionOptions {
  /** A name from Playwright's device list ("iPhone 15", "Pixel 7", "Desktop Chrome"). */
  device?: string;
  viewport?: { width: number; height: number };
  userAgent?: string;
  locale?: string;
  timezoneId?: string;
  geolocation?: { latitude: number; longitude: number; accuracy?: number };
  permissions?: string[];
  colorScheme?: 'light' | 'dark' | 'no-preference';
  reducedMotion?: 'reduce' | 'no-preference';
  extraHTTPHeaders?: Record<string, string>;
  httpCredentials?: { username: string; password: string };
  offline?: boolean;
  javaScriptEnabled?: boolean;
  ignoreHTTPSErrors?: boolean;
  proxy?: { server: string; bypass?: string; username?: string; password?: string };
  storageState?: StorageStateInput;
  blockResources?: BlockableResource[];
  /** Record a video (.webm) of each tab, listed when the session closes. */
  recordVideo?: boolean;
}

/** The options a session runs with, as results and lists may show them: device values filled in, secrets left out. */
export interface EffectiveSessionOptions extends Omit<SessionOptions, 'extraHTTPHeaders' | 'httpCredentials' | 'proxy' | 'storageState'> {
  deviceScaleFactor?: number;
  isMobile?: boolean;
  hasTouch?: boolean;
  /** Values of headers that carry credentials (Authorization, Cookie, tokens, keys) are replaced by HIDDEN. */
  extraHTTPHeaders?: Record<string, string>;
  /** The password is left out. */
  httpCredentials?: { username: string };
  /** Username and password are left out. */
  proxy?: { server: string; bypass?: string };
  /** Which cookies and localStorage keys the session started with; no values. */
  storageState?: {
    cookies: Omit<StoredCookie, 'value'>[];
    origins: { origin: string; localStorage: { name: string }[] }[];
  };
}

/** Options checked and turned into what Playwright takes. */
export interface ResolvedSessionOptions {
  contextOptions: BrowserContextOptions;
  blockResources: BlockableResource[];
  /** Whether the context records a video of each tab (the session manager gives it a folder). */
  recordVideo: boolean;
  echo: EffectiveSessionOptions;
}

/** What replaces a secret-bearing header value in an echo. */
export const HIDDEN = '(hidden)';

export const SESSION_OPTION_NAMES = [
  'device',
  'viewport',
  'userAgent',
  'locale',
  'timezoneId',
  'geolocation',
  'permissions',
  'colorScheme',
  'reducedMotion',
  'extraHTTPHeaders',
  'httpCredentials',
  'offline',
  'javaScriptEnabled',
  'ignoreHTTPSErrors',
  'proxy',
  'storageState',
  'blockResources',
  'recordVideo',
] as const satisfies readonly (keyof SessionOptions)[];

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
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Header names whose values are credentials, so an echo never repeats them. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|key|auth|session|password|credential/i;

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
    ...(storageState === undefined ? {} : { storageState }),
  };
  return { contextOptions, blockResources, recordVideo, echo: echoSessionOptions(options, device) };
}

/** The options as a result may show them: what the device set, overridden by explicit options, without any secret. */
function echoSessionOptions(options: CheckedOptions, device: DeviceSettings | undefined): EffectiveSessionOptions {
  const { proxy, httpCredentials, storageState, extraHTTPHeaders, ...plain } = options;
  return {
    ...(device === undefined ? {} : { device: options.device, ...device }),
    ...plain,
    ...(extraHTTPHeaders === undefined
      ? {}
      : { extraHTTPHeaders: Object.fromEntries(Object.entries(extraHTTPHeaders).map(([name, value]) => [name, SECRET_HEADER.test(name) ? HIDDEN : value])) }),
    ...(httpCredentials === undefined ? {} : { httpCredentials: { username: httpCredentials.username } }),
    ...(proxy === undefined ? {} : { proxy: { server: proxy.server, ...(proxy.bypass === undefined ? {} : { bypass: proxy.bypass }) } }),
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

/**
 * Makes the context refuse the given resource types. Only sessions that ask for it get a route: routing makes
 * Playwright intercept every request and turns the HTTP cache off, which the other sessions must not pay for.
 */
export async function blockResourceTypes(context: BrowserContext, types: readonly BlockableResource[]): Promise<void> {
  if (types.length === 0) return;
  const blocked = new Set<string>(types);
  await context.route('**/*', (route) => (blocked.has(route.request().resourceType()) ? route.abort('blockedbyclient') : route.fallback()));
}

/** Every name `device` accepts: Playwright's device list, in its own order. */
export function deviceNames(): string[] {
  return Object.keys(playwright().devices);
}

/** The part of a Playwright device descriptor a context takes. */
export interface DeviceSettings {
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
export function closeNames(wanted: string, names: readonly string[], count: number): string[] {
  const target = wanted.trim().toLowerCase();
  const landscape = target.includes('landscape');
  return names
    .filter((name) => landscape || !name.endsWith(' landscape'))
    .map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, count)
    .map(({ name }) => name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Options after checking: the storage state complete, as Playwright takes it. */
type CheckedOptions = Omit<SessionOptions, 'storageState'> & { storageState?: StorageState };

/** Every check, in the order the options are listed; the first problem is reported. */
function checkSessionOptions(input: unknown, browserName: BrowserName): CheckedOptions {
  if (input === undefined) return {};
  if (!isPlainObject(input)) throw invalid(undefined, 'Session options must be an object.');
  const known = new Set<string>(SESSION_OPTION_NAMES);
  const unknown = Object.keys(input).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw invalid(undefined, `Unknown session option ${unknown.map((key) => `"${key}"`).join(', ')}. Known options: ${SESSION_OPTION_NAMES.join(', ')}.`, {
      unknownOptions: unknown,
      knownOptions: [...SESSION_OPTION_NAMES],
    });
  }
  const options: CheckedOptions = {};
  const given = (key: string) => input[key] !== undefined;
  if (given('device')) {
    options.device = nonEmptyString(input.device, 'device');
    deviceDescriptor(options.device);
  }
  if (given('viewport')) options.viewport = viewportOf(input.viewport);
  if (given('userAgent')) options.userAgent = nonEmptyString(input.userAgent, 'userAgent');
  if (given('locale')) options.locale = localeOf(input.locale);
  if (given('timezoneId')) options.timezoneId = timezoneOf(input.timezoneId);
  if (given('geolocation')) options.geolocation = geolocationOf(input.geolocation);
  if (given('permissions')) options.permissions = permissionsOf(input.permissions, browserName);
  if (given('colorScheme')) options.colorScheme = oneOf(input.colorScheme, 'colorScheme', ['light', 'dark', 'no-preference'] as const);
  if (given('reducedMotion')) options.reducedMotion = oneOf(input.reducedMotion, 'reducedMotion', ['reduce', 'no-preference'] as const);
  if (given('extraHTTPHeaders')) options.extraHTTPHeaders = headersOf(input.extraHTTPHeaders);
  if (given('httpCredentials')) options.httpCredentials = credentialsOf(input.httpCredentials);
  for (const key of ['offline', 'javaScriptEnabled', 'ignoreHTTPSErrors', 'recordVideo'] as const) {
    if (given(key)) options[key] = booleanOf(input[key], key);
  }
  if (given('proxy')) options.proxy = proxyOf(input.proxy);
  if (given('storageState')) options.storageState = storageStateOf(input.storageState);
  if (given('blockResources')) options.blockResources = blockResourcesOf(input.blockResources);
  return options;
}

function viewportOf(value: unknown): { width: number; height: number } {
  const viewport = fields(value, 'viewport', ['width', 'height'], ['width', 'height']);
  const side = (key: 'width' | 'height') => {
    const size = viewport[key];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > 10_000) {
      throw invalid('viewport', `viewport.${key} must be a whole number of pixels from 1 to 10000, not ${JSON.stringify(size)}.`);
    }
    return size;
  };
  return { width: side('width'), height: side('height') };
}

function localeOf(value: unknown): string {
  const locale = nonEmptyString(value, 'locale');
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    throw invalid('locale', `"${locale}" is not a valid locale. Use a BCP 47 language tag such as "en-US", "de-DE" or "ja".`);
  }
  return locale;
}

function timezoneOf(value: unknown): string {
  const timezoneId = nonEmptyString(value, 'timezoneId');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezoneId });
  } catch {
    throw invalid('timezoneId', `"${timezoneId}" is not a time zone. Use an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`);
  }
  return timezoneId;
}

function geolocationOf(value: unknown): { latitude: number; longitude: number; accuracy?: number } {
  const place = fields(value, 'geolocation', ['latitude', 'longitude', 'accuracy'], ['latitude', 'longitude']);
  const number = (key: string, min: number, max: number) => {
    const n = place[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
      throw invalid('geolocation', `geolocation.${key} must be a number from ${min} to ${max}, not ${JSON.stringify(n)}.`);
    }
    return n;
  };
  return {
    latitude: number('latitude', -90, 90),
    longitude: number('longitude', -180, 180),
    ...(place.accuracy === undefined ? {} : { accuracy: number('accuracy', 0, Number.MAX_SAFE_INTEGER) }),
  };
}

function permissionsOf(value: unknown, browserName: BrowserName): string[] {
  const allowed = PERMISSIONS[browserName];
  const permissions = stringList(value, 'permissions');
  const unknown = permissions.filter((permission) => !allowed.includes(permission));
  if (unknown.length > 0) {
    throw invalid('permissions', `Unknown permission ${unknown.map((p) => `"${p}"`).join(', ')} for ${browserName}. Known: ${allowed.join(', ')}.`, {
      unknownPermissions: unknown,
      knownPermissions: [...allowed],
    });
  }
  return permissions;
}

function headersOf(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) throw invalid('extraHTTPHeaders', 'extraHTTPHeaders must be an object of header names to string values.');
  for (const [name, header] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) throw invalid('extraHTTPHeaders', `"${name}" is not a valid HTTP header name.`);
    if (typeof header !== 'string' || /[\r\n\0]/.test(header)) {
      throw invalid('extraHTTPHeaders', `The value of header "${name}" must be a string without line breaks.`);
    }
  }
  return { ...(value as Record<string, string>) };
}

function credentialsOf(value: unknown): { username: string; password: string } {
  const credentials = fields(value, 'httpCredentials', ['username', 'password'], ['username', 'password']);
  const text = (key: string) => {
    // The value itself is never quoted back: it is a secret.
    if (typeof credentials[key] !== 'string') throw invalid('httpCredentials', `httpCredentials.${key} must be a string.`);
    return credentials[key] as string;
  };
  return { username: text('username'), password: text('password') };
}

function proxyOf(value: unknown): NonNullable<SessionOptions['proxy']> {
  const proxy = fields(value, 'proxy', ['server', 'bypass', 'username', 'password'], ['server']);
  const server = nonEmptyString(proxy.server, 'proxy');
  const problem = proxyServerProblem(server);
  if (problem) {
    throw invalid('proxy', `proxy.server is not a proxy URL: ${problem}. Write it as http://host:port, https://host:port or socks5://host:port.`);
  }
  const result: NonNullable<SessionOptions['proxy']> = { server };
  for (const key of ['bypass', 'username', 'password'] as const) {
    const field = proxy[key];
    if (field === undefined) continue;
    // A credential is never quoted back: it is a secret.
    if (typeof field !== 'string') throw invalid('proxy', `proxy.${key} must be a string.`);
    result[key] = field;
  }
  if (/^socks5:/i.test(server) && (result.username !== undefined || result.password !== undefined)) {
    throw invalid('proxy', 'A socks5 proxy cannot take a username and password in the browser; use an http or https proxy for that.');
  }
  return result;
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

function storageStateOf(value: unknown): StorageState {
  if (!isPlainObject(value)) {
    throw invalid('storageState', 'storageState must be an object { cookies, origins } as a storage state export gives it (a file path is not accepted).');
  }
  const cookies = value.cookies ?? [];
  const origins = value.origins ?? [];
  if (!Array.isArray(cookies) || !Array.isArray(origins)) throw invalid('storageState', 'storageState.cookies and storageState.origins must be lists.');
  return {
    cookies: cookies.map((cookie, index) => storedCookieOf(cookie, index)),
    origins: origins.map((origin, index) => {
      if (!isPlainObject(origin) || typeof origin.origin !== 'string') {
        throw invalid('storageState', `storageState.origins[${index}] must be { origin, localStorage: [{ name, value }] }.`);
      }
      const items = origin.localStorage ?? [];
      if (!Array.isArray(items) || !items.every((item) => isPlainObject(item) && typeof item.name === 'string' && typeof item.value === 'string')) {
        throw invalid('storageState', `storageState.origins[${index}].localStorage must be a list of { name, value } strings.`);
      }
      return { origin: origin.origin, localStorage: items.map((item: { name: string; value: string }) => ({ name: item.name, value: item.value })) };
    }),
  };
}

/** A cookie as the export gives it; only name, value, domain and path are required, the flags default as in a browser. */
function storedCookieOf(value: unknown, index: number): StoredCookie {
  const where = `storageState.cookies[${index}]`;
  if (!isPlainObject(value)) throw invalid('storageState', `${where} must be an object.`);
  for (const key of ['name', 'value', 'domain', 'path'] as const) {
    if (typeof value[key] !== 'string' || (key !== 'value' && key !== 'name' && value[key] === '')) {
      throw invalid('storageState', `${where}.${key} must be a${key === 'value' || key === 'name' ? '' : ' non-empty'} string.`);
    }
  }
  const sameSite = value.sameSite ?? 'Lax';
  if (sameSite !== 'Strict' && sameSite !== 'Lax' && sameSite !== 'None') throw invalid('storageState', `${where}.sameSite must be "Strict", "Lax" or "None".`);
  const expires = value.expires ?? -1;
  if (typeof expires !== 'number' || !Number.isFinite(expires))
    throw invalid('storageState', `${where}.expires must be a number (seconds since epoch, -1 for a session cookie).`);
  const flag = (key: 'httpOnly' | 'secure') => {
    const flagValue = value[key] ?? false;
    if (typeof flagValue !== 'boolean') throw invalid('storageState', `${where}.${key} must be true or false.`);
    return flagValue;
  };
  return {
    name: value.name as string,
    value: value.value as string,
    domain: value.domain as string,
    path: value.path as string,
    expires,
    httpOnly: flag('httpOnly'),
    secure: flag('secure'),
    sameSite,
  };
}

function blockResourcesOf(value: unknown): BlockableResource[] {
  const types = stringList(value, 'blockResources');
  const wrong = types.filter((type) => !(BLOCKABLE_RESOURCES as readonly string[]).includes(type));
  if (wrong.length > 0) {
    throw invalid('blockResources', `Cannot block ${wrong.map((t) => `"${t}"`).join(', ')}: blockResources takes ${BLOCKABLE_RESOURCES.join(', ')}.`);
  }
  return [...new Set(types)] as BlockableResource[];
}

/** An object with only `allowed` keys and every `required` one. */
function fields(value: unknown, option: string, allowed: readonly string[], required: readonly string[]): Record<string, unknown> {
  const shape = `{ ${allowed.map((key) => (required.includes(key) ? key : `${key}?`)).join(', ')} }`;
  if (!isPlainObject(value)) throw invalid(option, `${option} must be an object ${shape}.`);
  const extra = Object.keys(value).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw invalid(option, `Unknown field ${extra.map((key) => `"${option}.${key}"`).join(', ')}; ${option} is ${shape}.`);
  const missing = required.filter((key) => value[key] === undefined);
  if (missing.length > 0) throw invalid(option, `${option} needs ${missing.map((key) => `"${key}"`).join(', ')}; it is ${shape}.`);
  return value;
}

function stringList(value: unknown, option: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(option, `${option} must be a list of strings.`);
  return [...(value as string[])];
}

function nonEmptyString(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(option, `${option} must be a non-empty string.`);
  return value;
}

function booleanOf(value: unknown, option: string): boolean {
  if (typeof value !== 'boolean') throw invalid(option, `${option} must be true or false.`);
  return value;
}

function oneOf<const T extends readonly string[]>(value: unknown, option: string, allowed: T): T[number] {
  if (typeof value !== 'string' || !allowed.includes(value)) throw invalid(option, `${option} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}.`);
  return value as T[number];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(option: string | undefined, message: string, details: ErrorDetails = {}): SessionError {
  return new SessionError('INVALID_PARAMETERS', message, { details: { ...(option === undefined ? {} : { option }), ...details } });
}
