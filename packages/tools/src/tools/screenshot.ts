// The screenshot tool: a PNG or JPEG of the viewport, the whole page or one element, scaled down when too large for a model.
import { browserError } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import { z } from 'zod';
import { imageSize, scaleImage, type ImageFormat, type ImageSize } from '../page/image.js';
import { onElement } from '../page/actions.js';
import { toolError } from '../framework/errors.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, optionalTargetInput, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** The longest side a returned image may have, in pixels; larger captures are scaled down to it. */
export const MAX_IMAGE_SIDE = 2_000;
/** The most bytes a returned image may have (about 1.3 MB once base64-encoded); larger ones are scaled down further. */
export const MAX_IMAGE_BYTES = 1_000_000;
const DEFAULT_JPEG_QUALITY = 80;
const CAPTURE_TIMEOUT = 30_000;

/** css: one image pixel per CSS pixel; device: one per device pixel (sharper, larger, with a device scale factor over 1). */
type ImageScale = 'css' | 'device';
export const scaleSchema = z.enum(['css', 'device']).optional().describe('Default css.');

interface FittedImage {
  data: Buffer;
  width: number;
  height: number;
  /** Set when the image was scaled down: the size it was captured at. */
  original?: { width: number; height: number };
}

/** Scales a capture down (keeping its format and aspect ratio) until its longest side and its size in bytes are within the caps. */
export async function fitImage(data: Buffer, format: ImageFormat, quality: number): Promise<FittedImage> {
  const original = imageSize(data);
  let current = data;
  let size = original;
  let factor = Math.min(1, MAX_IMAGE_SIDE / Math.max(original.width, original.height));
  // A few rounds at most: each shrinks the area in proportion to how far over the byte cap the last one was.
  for (let round = 0; round < 4 && (factor < 1 || current.length > MAX_IMAGE_BYTES); round += 1) {
    if (factor >= 1) factor = Math.sqrt(MAX_IMAGE_BYTES / current.length) * 0.9;
    current = await scaleImage(data, format, (size.width * factor) / original.width, quality);
    size = imageSize(current);
    factor = current.length > MAX_IMAGE_BYTES ? Math.sqrt(MAX_IMAGE_BYTES / current.length) * 0.9 : 1;
  }
  return current === data ? { data, ...size } : { data: current, ...size, original };
}

/**
 * A full page too long for the side cap, rendered by Chromium straight at the scale that fits: a fraction of the time and
 * memory of capturing at full size and shrinking in Node. Undefined on other browsers, or when the page fits anyway.
 */
async function captureFullPageScaled(page: Page, format: ImageFormat, quality: number): Promise<{ data: Buffer; original: ImageSize } | undefined> {
  if (page.context().browser()?.browserType().name() !== 'chromium') return undefined;
  const cdp = await page.context().newCDPSession(page);
  try {
    const { cssContentSize } = await cdp.send('Page.getLayoutMetrics');
    const original = { width: Math.ceil(cssContentSize.width), height: Math.ceil(cssContentSize.height) };
    const longest = Math.max(original.width, original.height);
    if (longest <= MAX_IMAGE_SIDE) return undefined;
    const shot = await cdp.send('Page.captureScreenshot', {
      format,
      ...(format === 'jpeg' ? { quality } : {}),
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, ...original, scale: MAX_IMAGE_SIDE / longest },
    });
    return { data: Buffer.from(shot.data, 'base64'), original };
  } finally {
    await cdp.detach().catch(() => {});
  }
}

async function capture(
  page: Page,
  options: { fullPage: boolean; selector?: string | undefined; ref?: string | undefined; format: ImageFormat; quality: number; scale: ImageScale },
) {
  const shot = { type: options.format, scale: options.scale, timeout: CAPTURE_TIMEOUT, ...(options.format === 'jpeg' ? { quality: options.quality } : {}) };
  if (options.selector !== undefined || options.ref !== undefined) {
    return onElement(page, { selector: options.selector, ref: options.ref }, 'hover', DEFAULT_ELEMENT_TIMEOUT, async (locator) => {
      // Wait for the element within the element timeout; the capture itself may take longer on a big element.
      await locator.waitFor({ state: 'visible', timeout: DEFAULT_ELEMENT_TIMEOUT });
      return locator.screenshot(shot);
    });
  }
  try {
    return await page.screenshot({ ...shot, fullPage: options.fullPage });
  } catch (error) {
    throw toolError(error);
  }
}

export const screenshot = defineSessionTool({
  name: 'screenshot',
  title: 'Take screenshot',
  description: 'An image of the viewport, the whole page or one element.',
  notes:
    'Captures the visible viewport (default), the whole scrollable page (fullPage: true), or one element (selector or ref from snapshot). ' +
    'content[0] is JSON {url, title, width, height, bytes, format}; the image follows as content[1]. ' +
    `Images are capped for the model: a capture whose longest side exceeds ${MAX_IMAGE_SIDE} px, or that is over ${MAX_IMAGE_BYTES} bytes, is scaled down (scaled: true, with the original size and a note); ` +
    'for small detail on a long page, screenshot one element instead. Use snapshot to find refs and read text; use screenshot to ' +
    'check layout, images and visual state. ' +
    'format "jpeg" is smaller for photos; quality applies to it only, and fullPage not with an element. scale "device" captures ' +
    'device pixels (sharper on a high-density device such as a phone), "css" (default) one pixel per CSS pixel. ' +
    'Errors: ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, ELEMENT_NOT_CLICKABLE (the element is ' +
    'hidden), INVALID_PARAMETERS (quality without jpeg, fullPage with an element), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    fullPage: z.boolean().optional().describe('Whole page.'),
    format: z.enum(['png', 'jpeg']).optional().describe('Default png.'),
    quality: z.number().int().min(0).max(100).optional().describe(`For jpeg (default ${DEFAULT_JPEG_QUALITY}).`),
    scale: scaleSchema,
  })
    .refine((args) => !(args.fullPage && (args.selector !== undefined || args.ref !== undefined)), {
      message: 'fullPage captures the whole page; leave it out when naming an element',
      path: ['fullPage'],
    })
    .refine((args) => args.quality === undefined || args.format === 'jpeg', {
      message: 'quality applies only to format "jpeg"',
      path: ['quality'],
    }),
  output: sessionOutput({
    format: z.enum(['png', 'jpeg']),
    width: z.number().describe('Width of the returned image in pixels.'),
    height: z.number().describe('Height of the returned image in pixels.'),
    bytes: z.number().describe('Size of the returned image in bytes (before base64).'),
    scaled: z.boolean().optional().describe('True when the capture was scaled down to fit the size caps.'),
    originalWidth: z.number().optional().describe('When scaled: the width it was captured at.'),
    originalHeight: z.number().optional().describe('When scaled: the height it was captured at.'),
    note: z.string().optional().describe('When scaled: what was done and how to see detail.'),
  }),
  kind: 'read',
  errors: ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'ELEMENT_NOT_CLICKABLE', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ selector, ref, fullPage = false, format = 'png', quality = DEFAULT_JPEG_QUALITY, scale = 'css' }, page, response) {
    // Rendered straight at the size that fits, a long full page is scaled down anyway: device pixels would be lost.
    const prescaled = fullPage && scale === 'css' ? await captureFullPageScaled(page, format, quality).catch(() => undefined) : undefined;
    const raw = prescaled?.data ?? (await capture(page, { fullPage, selector, ref, format, quality, scale }));
    let fitted: FittedImage;
    try {
      fitted = await fitImage(raw, format, quality);
    } catch (error) {
      throw browserError('unknown', `The browser returned an image that could not be read: ${messageOf(error)}`, {
        details: { browserMessage: messageOf(error) },
      });
    }
    const { data, width, height } = fitted;
    const original = prescaled?.original ?? fitted.original;
    const scaled = original
      ? {
          scaled: true as const,
          originalWidth: original.width,
          originalHeight: original.height,
          note:
            `Captured at ${original.width}×${original.height} px and scaled down to ${width}×${height} px to stay within ${MAX_IMAGE_SIDE} px and ${MAX_IMAGE_BYTES} bytes. ` +
            'For legible detail, screenshot one element (selector or ref), or the viewport instead of the full page.',
        }
      : {};
    response.attach({ type: 'image', data: data.toString('base64'), mimeType: format === 'png' ? 'image/png' : 'image/jpeg' });
    return { format, width, height, bytes: data.length, ...scaled };
  },
});
