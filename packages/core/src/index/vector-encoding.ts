// Vectors in a saved vector index: float32 values, little-endian, as standard base64 text.
import { allFinite } from '../values.js';

/** Whether this machine stores numbers little-endian (the saved form is little-endian everywhere). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_CODES = Uint8Array.from(BASE64, (char) => char.charCodeAt(0));
const BASE64_VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUES[BASE64.charCodeAt(i)] = i;
const ascii = new TextDecoder();

/** The little-endian bytes of a float32 vector. */
function vectorBytes(vector: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => {
    view.setFloat32(i * 4, value, true);
  });
  return bytes;
}

/** Standard base64 (with padding) of a float32 vector's little-endian bytes. */
export function encodeVector(vector: Float32Array): string {
  const bytes = vectorBytes(vector);
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = BASE64_CODES[n >> 18]!;
    out[o++] = BASE64_CODES[(n >> 12) & 63]!;
    out[o++] = BASE64_CODES[(n >> 6) & 63]!;
    out[o++] = BASE64_CODES[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out[o++] = BASE64_CODES[n >> 18]!;
    out[o++] = BASE64_CODES[(n >> 12) & 63]!;
    out[o++] = i + 1 < bytes.length ? BASE64_CODES[(n >> 6) & 63]! : 61; // '='
    out[o++] = 61;
  }
  return ascii.decode(out);
}

/** How many float32 values base64 text of this length holds, or -1 when it cannot hold whole ones. */
export function encodedFloatCount(encoded: unknown): number {
  if (typeof encoded !== 'string' || encoded.length % 4 !== 0) return -1;
  const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
  const byteLength = (encoded.length / 4) * 3 - padding;
  return byteLength % 4 === 0 ? byteLength / 4 : -1;
}

/** Decodes `encodeVector`'s output into `target`; false when it is not valid or not `target.length` long. */
export function decodeVector(encoded: unknown, target: Float32Array): boolean {
  if (typeof encoded !== 'string' || encodedFloatCount(encoded) !== target.length) return false;
  const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
  const byteLength = target.length * 4;
  const bytes = LITTLE_ENDIAN
    ? new Uint8Array(target.buffer, target.byteOffset, target.byteLength)
    : new Uint8Array(byteLength);
  let o = 0;
  for (let i = 0; i < encoded.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const code = encoded.charCodeAt(i + j);
      const value = code < 128 ? BASE64_VALUES[code]! : -1;
      if (value < 0 && !(code === 61 && i + j >= encoded.length - padding)) return false;
      n = (n << 6) | Math.max(value, 0);
    }
    if (o < byteLength) bytes[o++] = n >> 16;
    if (o < byteLength) bytes[o++] = (n >> 8) & 255;
    if (o < byteLength) bytes[o++] = n & 255;
  }
  if (!LITTLE_ENDIAN) {
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < target.length; i++) target[i] = view.getFloat32(i * 4, true);
  }
  return allFinite(target);
}
