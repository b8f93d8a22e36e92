// Reading the pixel size of a PNG or JPEG from its header, and scaling a capture down in Node (pure JS codecs, any browser).
import type { PNG as PngClass } from 'pngjs';

export type ImageFormat = 'png' | 'jpeg';

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The pixel size stored in a PNG's IHDR chunk or a JPEG's SOFn segment; throws on anything else. */
export function imageSize(data: Buffer): ImageSize {
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_SIGNATURE) && data.toString('latin1', 12, 16) === 'IHDR') {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let at = 2;
    while (at + 9 < data.length) {
      if (data[at] !== 0xff) throw new Error('corrupt JPEG: expected a marker');
      const marker = data[at + 1] ?? 0;
      // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      // SOF0–SOF15 hold the frame size, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
      }
      at += 2 + data.readUInt16BE(at + 2);
    }
    throw new Error('corrupt JPEG: no frame header');
  }
  throw new Error('not a PNG or JPEG image');
}

/** The codecs, loaded by the first capture that needs scaling: ~130 KB of JavaScript that start-up need not load. */
let codecs: Promise<{ PNG: typeof PngClass; jpeg: typeof import('jpeg-js') }> | undefined;

function loadCodecs() {
  codecs ??= Promise.all([import('pngjs'), import('jpeg-js')]).then(([png, jpeg]) => ({ PNG: png.PNG, jpeg: jpeg.default }));
  return codecs;
}

/** Decodes, shrinks by `factor` (0 < factor < 1) with an area average, and encodes again in the same format. */
export async function scaleImage(data: Buffer, format: ImageFormat, factor: number, quality: number): Promise<Buffer> {
  const { PNG, jpeg } = await loadCodecs();
  const source = format === 'png' ? PNG.sync.read(data) : jpeg.decode(data, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 2048 });
  const width = Math.max(1, Math.round(source.width * factor));
  const height = Math.max(1, Math.round(source.height * factor));
  const pixels = shrink(source.data, source.width, source.height, width, height);
  if (format === 'png') return PNG.sync.write(Object.assign(new PNG({ width, height }), { data: Buffer.from(pixels.buffer) }));
  return jpeg.encode({ data: pixels, width, height }, quality).data;
}

/** Each target pixel is the mean of the source pixels it covers (a box filter): no aliasing when shrinking a lot. */
function shrink(source: Uint8Array, width: number, height: number, toWidth: number, toHeight: number): Uint8Array {
  const target = new Uint8Array(toWidth * toHeight * 4);
  const xStart = Array.from({ length: toWidth + 1 }, (_, x) => Math.min(width, Math.floor((x * width) / toWidth)));
  for (let y = 0; y < toHeight; y += 1) {
    const y0 = Math.floor((y * height) / toHeight);
    const y1 = Math.max(y0 + 1, Math.min(height, Math.floor(((y + 1) * height) / toHeight)));
    for (let x = 0; x < toWidth; x += 1) {
      const x0 = xStart[x] ?? 0;
      const x1 = Math.max(x0 + 1, xStart[x + 1] ?? width);
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = y0; sy < y1; sy += 1) {
        let i = (sy * width + x0) * 4;
        for (let sx = x0; sx < x1; sx += 1, i += 4) {
          r += source[i] ?? 0;
          g += source[i + 1] ?? 0;
          b += source[i + 2] ?? 0;
          a += source[i + 3] ?? 0;
        }
      }
      const count = (y1 - y0) * (x1 - x0);
      const o = (y * toWidth + x) * 4;
      target[o] = Math.round(r / count);
      target[o + 1] = Math.round(g / count);
      target[o + 2] = Math.round(b / count);
      target[o + 3] = Math.round(a / count);
    }
  }
  return target;
}
