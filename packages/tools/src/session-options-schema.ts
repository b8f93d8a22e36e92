// The zod shape of create_session's identity options and of their echo; session-core checks what a schema cannot (device names, time zones, proxy URLs).
import { BLOCKABLE_RESOURCES } from '@sessionwright/session-core';
import { z } from 'zod';

const viewportSchema = z.strictObject({
  width: z.number().int().min(1).max(10_000).describe('CSS pixels.'),
  height: z.number().int().min(1).max(10_000).describe('CSS pixels.'),
});

const geolocationSchema = z.strictObject({
  latitude: z.number().min(-90).max(90).describe('Degrees, -90 to 90.'),
  longitude: z.number().min(-180).max(180).describe('Degrees, -180 to 180.'),
  accuracy: z.number().min(0).optional().describe('Metres (default 0).'),
});

const colorSchemeSchema = z.enum(['light', 'dark', 'no-preference']);
const reducedMotionSchema = z.enum(['reduce', 'no-preference']);
const blockResourcesSchema = z.array(z.enum(BLOCKABLE_RESOURCES));

/** A cookie as export_storage_state gives it; extra fields a newer export may carry are ignored. */
const storedCookieSchema = z.looseObject({
  name: z.string().describe('Cookie name.'),
  value: z.string().describe('Cookie value.'),
  domain: z.string().describe('Domain, e.g. "example.com" or ".example.com" for subdomains too.'),
  path: z.string().describe('Path, usually "/".'),
  expires: z.number().optional().describe('Unix time in seconds; -1 (default) for a session cookie.'),
  httpOnly: z.boolean().optional().describe('Default false.'),
  secure: z.boolean().optional().describe('Default false.'),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional().describe('Default "Lax".'),
});

export const storageStateSchema = z.looseObject({
  cookies: z.array(storedCookieSchema).optional().describe('Cookies of the state (default none).'),
  origins: z
    .array(
      z.looseObject({
        origin: z.string().describe('An origin such as "https://example.com".'),
        localStorage: z.array(z.object({ name: z.string(), value: z.string() })).describe('localStorage items of that origin.'),
      }),
    )
    .optional()
    .describe('localStorage per origin (default none).'),
});

/** create_session's arguments: every one optional; with none, the session may come ready-made from the warm pool. */
export const sessionOptionsShape = {
  device: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A Playwright device name, e.g. "iPhone 15", "Pixel 7", "iPad Mini", "Desktop Chrome": sets viewport, user agent, scale factor, mobile and touch. The options below override it.',
    ),
  viewport: viewportSchema.optional().describe('Page size in CSS pixels, e.g. {"width": 1440, "height": 900}.'),
  userAgent: z.string().min(1).optional().describe('The User-Agent header and navigator.userAgent.'),
  locale: z.string().min(1).optional().describe('A BCP 47 language tag, e.g. "de-DE": navigator.language, Accept-Language, number and date formats.'),
  timezoneId: z.string().min(1).optional().describe('An IANA time zone, e.g. "Europe/Berlin", "America/New_York".'),
  geolocation: geolocationSchema
    .optional()
    .describe('Where navigator.geolocation says the device is; also grant "geolocation" in permissions so pages may read it.'),
  permissions: z.array(z.string()).optional().describe('Browser permissions granted to every page, e.g. ["geolocation", "notifications", "clipboard-read"].'),
  colorScheme: colorSchemeSchema.optional().describe('What prefers-color-scheme matches.'),
  reducedMotion: reducedMotionSchema.optional().describe('What prefers-reduced-motion matches.'),
  extraHTTPHeaders: z.record(z.string(), z.string()).optional().describe('Headers sent with every request of this session, e.g. {"X-Team": "qa"}.'),
  httpCredentials: z
    .strictObject({ username: z.string().describe('User name.'), password: z.string().describe('Password; never echoed.') })
    .optional()
    .describe('Answers HTTP basic/digest authentication challenges.'),
  offline: z.boolean().optional().describe('Start with the network cut off (default false).'),
  javaScriptEnabled: z.boolean().optional().describe('false runs pages without JavaScript (default true).'),
  ignoreHTTPSErrors: z.boolean().optional().describe('Accept invalid or self-signed TLS certificates (default false).'),
  proxy: z
    .strictObject({
      server: z.string().min(1).describe('http://host:port, https://host:port or socks5://host:port.'),
      bypass: z.string().optional().describe('Comma-separated hosts that skip the proxy, e.g. ".internal.example, localhost".'),
      username: z.string().optional().describe('Proxy user name (http/https proxies only); never echoed.'),
      password: z.string().optional().describe('Proxy password; never echoed.'),
    })
    .optional()
    .describe("This session's traffic, and only this session's, goes through this proxy."),
  storageState: storageStateSchema
    .optional()
    .describe('A state from export_storage_state: the session starts with those cookies and localStorage, e.g. signed in.'),
  blockResources: blockResourcesSchema.optional().describe('Resource types this session never loads, e.g. ["image", "font", "media"]: faster crawling.'),
  recordVideo: z.boolean().optional().describe('Record a .webm video of each tab; close_session lists the files.'),
};

/** The effective options echoed by create_session: device values filled in, passwords and cookie values left out. */
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
    extraHTTPHeaders: z.record(z.string(), z.string()).optional().describe('Values of credential headers read "(hidden)".'),
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
    blockResources: blockResourcesSchema.optional(),
    recordVideo: z.boolean().optional(),
  })
  .describe('The options the session runs with ({} for a plain session); secrets are left out.');
