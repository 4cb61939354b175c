import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeBytes, LineReader, parseJsonRpcLine } from './json-rpc-lines.js';

/** Feeds `text` to a reader in the given chunk sizes; returns the lines and overflows in order. */
function read(text: string, limit: number, sizes: number[]): string[] {
  const events: string[] = [];
  const reader = new LineReader(limit, {
    line: (line) => events.push(line),
    overflow: () => events.push('<overflow>'),
  });
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes.length === 0 ? bytes.length : Math.max(1, sizes[i % sizes.length]!);
    reader.push(bytes.subarray(at, at + size));
    at += size;
  }
  return events;
}

describe('LineReader', () => {
  it('reads the same lines however the bytes are chunked; a line over the limit is one overflow, then skipped', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }).filter((line) => !/[\r\n]/.test(line))),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 5 }),
        (lines, sizes) => {
          const limit = 8;
          const expected = lines.map((line) => (Buffer.byteLength(line) > limit ? '<overflow>' : line));
          expect(read(lines.map((line) => `${line}\n`).join(''), limit, sizes)).toEqual(expected);
        },
      ),
    );
  });

  it('strips \\r of CRLF and keeps a partial line until its newline', () => {
    expect(read('{"a":1}\r\n{"b"', 100, [])).toEqual(['{"a":1}']);
  });
});

describe('parseJsonRpcLine', () => {
  it('tells invalid JSON from JSON that is not JSON-RPC, and keeps the id of the latter', () => {
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      message: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    const notJson = parseJsonRpcLine('{"jsonrpc":');
    expect('error' in notJson && notJson.error).toBeInstanceOf(SyntaxError);
    const notRpc = parseJsonRpcLine('{"jsonrpc":"2.0","id":7,"result":5}');
    expect(notRpc).toMatchObject({ id: 7, isResponse: true, isRequest: false, error: { name: 'ZodError' } });
  });
});

describe('describeBytes', () => {
  it('says MB for whole mebibytes', () => {
    expect(describeBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(describeBytes(1000)).toBe('1000 bytes');
  });
});
