// Draws media/icon.png (128×128): long conversation lines on the left squeezed into a short
// summary block on the right, on a rounded tile. Plain zlib + a hand-written PNG encoder, so the
// icon needs no image library. Run: node scripts/make-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const SIZE = 128;
const px = new Uint8Array(SIZE * SIZE * 4); // RGBA, transparent

function blend(x, y, [r, g, b], a = 1) {
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return;
  const i = (y * SIZE + x) * 4;
  const da = px[i + 3] / 255;
  const oa = a + da * (1 - a);
  if (oa === 0) return;
  px[i] = Math.round((r * a + px[i] * da * (1 - a)) / oa);
  px[i + 1] = Math.round((g * a + px[i + 1] * da * (1 - a)) / oa);
  px[i + 2] = Math.round((b * a + px[i + 2] * da * (1 - a)) / oa);
  px[i + 3] = Math.round(oa * 255);
}

/** A rounded rectangle with a soft (supersampled) edge. */
function roundRect(x0, y0, x1, y1, radius, color) {
  for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const px_ = x + (sx + 0.5) / 4;
          const py_ = y + (sy + 0.5) / 4;
          if (px_ < x0 || px_ > x1 || py_ < y0 || py_ > y1) continue;
          const cx = Math.min(Math.max(px_, x0 + radius), x1 - radius);
          const cy = Math.min(Math.max(py_, y0 + radius), y1 - radius);
          if ((px_ - cx) ** 2 + (py_ - cy) ** 2 <= radius ** 2) hits++;
        }
      }
      if (hits) blend(x, y, color, hits / 16);
    }
  }
}

const tile = [30, 58, 95];
const line = [214, 228, 240];
const accent = [78, 201, 176];
const arrow = [255, 196, 87];

roundRect(4, 4, 124, 124, 22, tile);
// Long conversation lines (left).
const lengths = [46, 38, 50, 34, 44, 40];
lengths.forEach((len, i) => roundRect(18, 24 + i * 14, 18 + len, 31 + i * 14, 3.5, line));
// Arrow: squeeze to the right.
roundRect(70, 58, 84, 66, 2, arrow);
for (let k = 0; k < 10; k++) roundRect(84 + k * 0.9, 52 + k, 86 + k * 0.9, 72 - k, 1, arrow);
// The compact summary block (right).
roundRect(96, 40, 112, 88, 5, accent);
roundRect(99, 48, 109, 52, 2, tile);
roundRect(99, 58, 109, 62, 2, tile);
roundRect(99, 68, 109, 72, 2, tile);

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  Buffer.from(px.buffer, y * SIZE * 4, SIZE * 4).copy(raw, y * (SIZE * 4 + 1) + 1);
}
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync(new URL('../media/', import.meta.url), { recursive: true });
writeFileSync(new URL('../media/icon.png', import.meta.url), png);
console.log(`media/icon.png: ${png.length} bytes`);
