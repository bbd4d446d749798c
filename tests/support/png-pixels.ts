/**
 * The pixels of a PNG as Chromium's screenshots write it (8 bits a channel, RGB or RGBA, not interlaced),
 * and the WCAG contrast between colours, for tests that check what the screen really shows.
 */
import { inflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

export interface Pixels {
  width: number;
  height: number;
  at: (x: number, y: number) => Rgb;
}

const SIGNATURE_LENGTH = 8;

export function decodePng(png: Buffer): Pixels {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [bitDepth, colorType, , , interlace] = png.subarray(24, 29);
  if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
    throw new Error(
      `Unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}.`,
    );
  }
  const channels = colorType === 6 ? 4 : 3;
  const rows = unfilter(inflateSync(imageData(png)), width * channels, height, channels);
  return {
    width,
    height,
    at: (x, y) => {
      const start = y * width * channels + x * channels;
      return [rows[start] ?? 0, rows[start + 1] ?? 0, rows[start + 2] ?? 0];
    },
  };
}

/** The IDAT chunks, joined. */
function imageData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = SIGNATURE_LENGTH; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT') {
      parts.push(png.subarray(offset + 8, offset + 8 + length));
    }
    offset += length + 12;
  }
  return Buffer.concat(parts);
}

/** Undoes each row's filter (PNG spec §9): every row starts with its filter type. */
function unfilter(raw: Buffer, stride: number, height: number, channels: number): Uint8Array {
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? (out[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (out[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = x >= channels && y > 0 ? (out[(y - 1) * stride + x - channels] ?? 0) : 0;
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      out[y * stride + x] = (value + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  return out;
}

function predict(filter: number | undefined, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return Math.floor((left + up) / 2);
    case 4:
      return paeth(left, up, upLeft);
    default:
      throw new Error(`Unknown PNG filter ${filter}.`);
  }
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** WCAG 2.2's relative luminance of an sRGB colour. */
export function luminance([red, green, blue]: Rgb): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

/** WCAG 2.2's contrast ratio, 1 (the same) to 21 (black on white). */
export function contrastRatio(one: Rgb, other: Rgb): number {
  const [first, second] = [luminance(one), luminance(other)];
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}
