// The pairing picture of `GET /api/{session}/auth/qr`: a real PNG (made with sharp) that looks like
// a QR code (three finder squares, a grid of modules drawn from the QR value) but is not one that
// a phone can read. No QR encoder is among the project's packages, and nobody scans this double:
// it pairs through its control. `format=raw` gives the value itself.
import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** A version-4 QR code's size in modules, the quiet zone around it and pixels per module. */
const MODULES = 33;
const QUIET = 4;
const SCALE = 8;

/** Whether the module at (x, y) is dark: a finder pattern in three corners, else the value's bits. */
function dark(bits: Buffer, x: number, y: number): boolean {
  for (const [left, top] of [
    [0, 0],
    [MODULES - 7, 0],
    [0, MODULES - 7],
  ] as const) {
    const fx = x - left;
    const fy = y - top;
    if (fx >= -1 && fx <= 7 && fy >= -1 && fy <= 7) {
      const ring = Math.max(Math.abs(fx - 3), Math.abs(fy - 3));
      return ring !== 2 && ring !== 4;
    }
  }
  const index = y * MODULES + x;
  return ((bits[index >> 3] ?? 0) >> (index & 7)) % 2 === 1;
}

/** Enough bits for every module: SHA-512 of the value, then of the value and a counter. */
function bitsOf(value: string): Buffer {
  const chunks = [0, 1, 2].map((i) => createHash('sha512').update(`${i}:${value}`).digest());
  return Buffer.concat(chunks);
}

/** The PNG for a QR value (the same value always gives the same picture). */
export async function qrPng(value: string): Promise<Buffer> {
  const bits = bitsOf(value);
  const side = (MODULES + 2 * QUIET) * SCALE;
  const pixels = Buffer.alloc(side * side, 255);
  for (let y = 0; y < MODULES; y += 1) {
    for (let x = 0; x < MODULES; x += 1) {
      if (!dark(bits, x, y)) continue;
      for (let dy = 0; dy < SCALE; dy += 1) {
        const row = ((y + QUIET) * SCALE + dy) * side;
        pixels.fill(0, row + (x + QUIET) * SCALE, row + (x + QUIET + 1) * SCALE);
      }
    }
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
    .png()
    .toBuffer();
}
