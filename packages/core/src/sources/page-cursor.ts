import { InvalidCursorError } from './source-errors.js';

/** Where the next page of a list starts: a source (by position), its own cursor, and an offset in that page. */
export interface ListPosition {
  /** The source's position among the listed sources (0 for a list of one). */
  source: number;
  /** The source's own cursor of the page the position is in (none: its first page). */
  cursor?: string;
  /** How many items of that page were already given. */
  offset: number;
}

/** The longest cursor read; none longer is given unless a source's own cursor is that long. */
export const MAX_CURSOR_CHARS = 4096;

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** An opaque cursor (base64url of JSON) for `position` in `list`, good for that list only. */
export function encodeCursor(list: string, position: ListPosition): string {
  const json = JSON.stringify([list, position.source, position.cursor ?? null, position.offset]);
  return toBase64url(utf8.encode(json));
}

/**
 * Reads a cursor {@link encodeCursor} gave for `list` over `sources` sources; anything else (not one
 * of ours, another list's, too long, out of range) is an {@link InvalidCursorError}.
 */
export function decodeCursor(list: string, cursor: string, sources: number): ListPosition {
  const refuse = (problem: InvalidCursorError['problem'], reason: string) =>
    new InvalidCursorError(list, problem, reason);
  const foreign = () => refuse('unreadable', 'not one this listing gave');
  if (typeof cursor !== 'string') throw foreign();
  if (cursor.length > MAX_CURSOR_CHARS) throw refuse('too-long', `over ${MAX_CURSOR_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(fromBase64url(cursor)));
  } catch {
    throw foreign();
  }
  if (!Array.isArray(value) || value.length !== 4) throw foreign();
  const [kind, source, sourceCursor, offset] = value as unknown[];
  if (kind !== list) {
    throw refuse('other-list', typeof kind === 'string' ? `made for the ${kind} list` : 'made for another list');
  }
  const inRange = (n: unknown, max: number) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max;
  if (!inRange(source, sources - 1) || !inRange(offset, Number.MAX_SAFE_INTEGER)) {
    throw refuse('out-of-range', 'out of range');
  }
  if (sourceCursor !== null && typeof sourceCursor !== 'string') throw foreign();
  return {
    source: source as number,
    offset: offset as number,
    ...(typeof sourceCursor === 'string' ? { cursor: sourceCursor } : {}),
  };
}

/** Base64url without padding, built on the standard `btoa` (Node, browsers, workers). */
function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes of base64url text (padding optional); throws on any other character or a bad length. */
function fromBase64url(text: string): Uint8Array {
  if (!BASE64URL.test(text) || text.length % 4 === 1) throw new SyntaxError('not base64url');
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
