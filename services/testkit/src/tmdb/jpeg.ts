// A tiny baseline JPEG encoder for solid grey images, so the fake image CDN serves real,
// decodable JPEG files of the requested size without bundling binaries. A flat image has only
// DC coefficients, so two minimal Huffman tables suffice: every block after the first repeats
// the same DC value (difference 0) followed by end-of-block.

function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, bits: number) {
    for (let i = bits - 1; i >= 0; i--) {
      this.current = (this.current << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }

  private flushByte() {
    this.bytes.push(this.current);
    // 0xFF in entropy data must be followed by a stuffed zero byte.
    if (this.current === 0xff) this.bytes.push(0x00);
    this.current = 0;
    this.count = 0;
  }

  finish(): number[] {
    // Pad the last byte with 1-bits, as the standard requires.
    while (this.count !== 0) this.write(1, 1);
    return this.bytes;
  }
}

/** Bit length ("category") of a DC difference, as in JPEG's magnitude coding. */
function category(value: number) {
  let abs = Math.abs(value);
  let bits = 0;
  while (abs > 0) {
    bits++;
    abs >>= 1;
  }
  return bits;
}

/**
 * Encodes a width × height greyscale JPEG filled with `grey` (0–255, not 128).
 * With an all-ones quantisation table, a flat 8×8 block's DC coefficient is 8 × (grey − 128).
 */
export function solidGreyJpeg(width: number, height: number, grey: number): Buffer {
  const dc = 8 * (Math.round(grey) - 128);
  const size = category(dc);
  if (size === 0) throw new Error('grey 128 has a zero DC value; pick another shade');
  const jfif = [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0];
  const quant = [0x00, ...Array<number>(64).fill(1)];
  const frame = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  // DC table 0: two 2-bit codes, 00 → category 0 (no change), 01 → the first block's category.
  const dcCounts = [0, 2, ...Array<number>(14).fill(0)];
  const dcTable = [0x00, ...dcCounts, 0, size];
  // AC table 0: a single 1-bit code, 0 → end of block.
  const acTable = [0x10, 1, ...Array<number>(15).fill(0), 0x00];
  const scanHeader = [1, 1, 0x00, 0, 63, 0];

  const bits = new BitWriter();
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const amplitude = dc > 0 ? dc : (dc - 1) & ((1 << size) - 1);
  bits.write(0b01, 2);
  bits.write(amplitude, size);
  bits.write(0, 1);
  for (let i = 1; i < blocks; i++) {
    bits.write(0b00, 2);
    bits.write(0, 1);
  }
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, jfif),
    ...segment(0xdb, quant),
    ...segment(0xc0, frame),
    ...segment(0xc4, dcTable),
    ...segment(0xc4, acTable),
    ...segment(0xda, scanHeader),
    ...bits.finish(),
    0xff,
    0xd9,
  ]);
}
