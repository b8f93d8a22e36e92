// The pure parts of the page tools: snapshot capping, key names, image headers and scaling, evaluate's JSON conversion.
import { isSessionError } from '@sessionwright/session-core';
import fc from 'fast-check';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { imageSize, scaleImage } from '../src/page/image.js';
import { normalizeKey } from '../src/page/key-names.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, fitImage } from '../src/tools/screenshot.js';
import { capSnapshot } from '../src/page/snapshot.js';

function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = pixel(x, y);
      image.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return PNG.sync.write(image);
}

describe('capSnapshot', () => {
  const snapshot = [
    '- generic [ref=e1]:',
    '  - heading "Title" [level=1] [ref=e2]',
    '  - list [ref=e3]:',
    ...Array.from({ length: 50 }, (_, i) => `    - listitem [ref=e${i + 4}]: Item ${i}`),
    '  - button "Last" [ref=e60]',
  ].join('\n');

  it('leaves a snapshot within the cap alone', () => {
    expect(capSnapshot(snapshot, snapshot.length)).toEqual({ snapshot });
  });

  it('cuts at a line boundary, counts what is hidden, and names the containers of the cut', () => {
    const capped = capSnapshot(snapshot, 300);
    expect(capped.truncated).toBe(true);
    expect(capped.snapshot.length).toBeLessThanOrEqual(300);
    expect(snapshot.startsWith(`${capped.snapshot}\n`)).toBe(true);
    const refs = (text: string) => text.match(/\[ref=/g)?.length ?? 0;
    expect(capped.note).toContain(`${refs(snapshot) - refs(capped.snapshot)} more element refs not shown`);
    expect(capped.note).toContain(`of ${snapshot.length} characters`);
    expect(capped.note).toContain('inside list [ref=e3] inside generic [ref=e1]: take a snapshot of ref "e3"');
  });

  it('never exceeds the cap and always keeps a prefix, for any text and cap', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 60 }), fc.integer({ min: 1, max: 2_000 }), (lines, cap) => {
        const text = lines.join('\n');
        const capped = capSnapshot(text, cap);
        expect(capped.snapshot.length).toBeLessThanOrEqual(cap);
        expect(text.startsWith(capped.snapshot)).toBe(true);
        expect(capped.truncated === true).toBe(text.length > cap);
      }),
      { numRuns: 200 },
    );
  });
});

describe('normalizeKey', () => {
  it('accepts Playwright names, single characters and chords, fixing common spellings', () => {
    expect(normalizeKey('Enter')).toBe('Enter');
    expect(normalizeKey('enter')).toBe('Enter');
    expect(normalizeKey('a')).toBe('a');
    expect(normalizeKey('A')).toBe('A');
    expect(normalizeKey('Control+A')).toBe('Control+A');
    expect(normalizeKey('ctrl+shift+t')).toBe('Control+Shift+t');
    expect(normalizeKey('cmd+c')).toBe('Meta+c');
    expect(normalizeKey('ControlOrMeta+v')).toBe('ControlOrMeta+v');
    expect(normalizeKey('esc')).toBe('Escape');
    expect(normalizeKey('Control++')).toBe('Control++');
    expect(normalizeKey('+')).toBe('+');
    expect(normalizeKey('PageDown')).toBe('PageDown');
    expect(normalizeKey('F5')).toBe('F5');
    expect(normalizeKey(' ')).toBe(' ');
  });

  it('rejects unknown names with INVALID_PARAMETERS naming the part', () => {
    for (const [key, part] of [
      ['Banana', 'Banana'],
      ['Control+Banana', 'Banana'],
      ['é', 'é'],
      ['Enter+', ''],
      ['', ''],
    ]) {
      try {
        normalizeKey(key as string);
        expect.unreachable(key);
      } catch (error) {
        expect(isSessionError(error) && error.code).toBe('INVALID_PARAMETERS');
        expect(isSessionError(error) && error.details?.unknownPart).toBe(part);
      }
    }
  });
});

describe('images', () => {
  it('reads the size from PNG and JPEG headers, and rejects anything else', () => {
    expect(imageSize(png(37, 11, () => [1, 2, 3]))).toEqual({ width: 37, height: 11 });
    const raw = Buffer.alloc(50 * 23 * 4, 128);
    expect(imageSize(jpeg.encode({ data: raw, width: 50, height: 23 }, 80).data)).toEqual({ width: 50, height: 23 });
    expect(() => imageSize(Buffer.from('GIF89a...........................'))).toThrow(/not a PNG or JPEG/);
    expect(() => imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toThrow(/JPEG/);
  });

  it('scales by area average, keeping colour and format', async () => {
    // Stripes of black and white average to grey.
    const striped = png(40, 20, (x) => (x % 2 ? [255, 255, 255] : [0, 0, 0]));
    const half = PNG.sync.read(await scaleImage(striped, 'png', 0.5, 80));
    expect([half.width, half.height]).toEqual([20, 10]);
    for (let i = 0; i < half.data.length; i += 4) expect(Math.abs((half.data[i] ?? 0) - 128)).toBeLessThanOrEqual(1);
    const red = jpeg.encode({ data: Buffer.from(Array.from({ length: 64 * 64 }, () => [255, 0, 0, 255]).flat()), width: 64, height: 64 }, 90).data;
    const small = jpeg.decode(await scaleImage(red, 'jpeg', 0.25, 90));
    expect([small.width, small.height]).toEqual([16, 16]);
    expect(small.data[0]).toBeGreaterThan(200);
    expect(small.data[1]).toBeLessThan(60);
  });

  it('fits captures within the side and byte caps and reports the original size', async () => {
    const fine = png(300, 200, () => [10, 20, 30]);
    expect(await fitImage(fine, 'png', 80)).toEqual({ data: fine, width: 300, height: 200 });

    const tall = png(100, 5_000, (x, y) => [x % 256, y % 256, 0]);
    const fitted = await fitImage(tall, 'png', 80);
    expect(fitted.original).toEqual({ width: 100, height: 5_000 });
    expect(fitted.height).toBe(MAX_IMAGE_SIDE);
    expect(fitted.width).toBe(40);
    expect(imageSize(fitted.data)).toEqual({ width: fitted.width, height: fitted.height });

    let seed = 1;
    const noisy = png(800, 600, () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return [seed & 255, (seed >> 8) & 255, (seed >> 16) & 255];
    });
    expect(noisy.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    const shrunk = await fitImage(noisy, 'png', 80);
    expect(shrunk.data.length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(shrunk.original).toEqual({ width: 800, height: 600 });
    expect(Math.abs(shrunk.width / shrunk.height - 800 / 600)).toBeLessThan(0.02);
  });
});
