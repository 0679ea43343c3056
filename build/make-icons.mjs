#!/usr/bin/env node
// Draws the packaged app's icons from build/icon.svg (run again after changing it; the outputs are committed):
// icon.png (1024, what electron-builder and the dmg use), icons/<N>x<N>.png (the Linux desktop sizes),
// icon.ico (Windows: PNG images 16–256) and icon.icns (macOS: PNG images 16–1024). `sharp` draws the PNGs;
// the ICO and ICNS containers are a few header bytes around them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));
const svg = readFileSync(join(here, 'icon.svg'));

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// ICNS types holding PNG data, by pixel size (the @2x types are the same pixels at twice the point size).
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

const png = (size) => sharp(svg).resize(size, size).png().toBuffer();

/** An ICO file of PNG images: a 6-byte header, a 16-byte entry per image, then the images. */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

/** An ICNS file: 'icns' and the total length, then per image its type, its length (with the 8-byte head) and PNG. */
function icns(images) {
  const chunks = images.map(({ type, data }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

async function main() {
  const bySize = new Map();
  for (const size of new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])) {
    bySize.set(size, await png(size));
  }
  mkdirSync(join(here, 'icons'), { recursive: true });
  writeFileSync(join(here, 'icon.png'), bySize.get(1024));
  for (const size of LINUX_SIZES) writeFileSync(join(here, 'icons', `${size}x${size}.png`), bySize.get(size));
  writeFileSync(join(here, 'icon.ico'), ico(ICO_SIZES.map((size) => ({ size, data: bySize.get(size) }))));
  writeFileSync(join(here, 'icon.icns'), icns(ICNS_TYPES.map(([type, size]) => ({ type, data: bySize.get(size) }))));
  console.log('build/: icon.png, icons/, icon.ico and icon.icns drawn from icon.svg');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
