import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { CliIO } from './cli-io.js';

/** The longest line `readLines` gives, in bytes (64 MiB): one tool of a JSON Lines catalog. */
export const MAX_LINE_BYTES = 64 * 2 ** 20;

/** A line longer than `readLines` allows; `line` is its 1-based number. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
    this.name = 'LineTooLongError';
  }
}

/**
 * The lines of a UTF-8 file without their `\n`, read in chunks so the file is never held whole.
 * Lines are cut at the newline byte (which never occurs inside a multi-byte UTF-8 character), so a
 * character split across two chunks is decoded whole. Throws `LineTooLongError` at a line longer
 * than `maxLineBytes`.
 */
export async function* readLines(path: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        line += 1;
        if (pendingBytes + end - start > maxLineBytes) throw new LineTooLongError(line, maxLineBytes);
        pending.push(chunk.subarray(start, end));
        yield Buffer.concat(pending).toString('utf8');
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxLineBytes) throw new LineTooLongError(line + 1, maxLineBytes);
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
    if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
  } finally {
    stream.destroy();
  }
}

/** The file access of the `toolscout` command: Node's file system, paths relative to the working directory. */
export const nodeFileIO: Pick<CliIO, 'readFile' | 'fileSize' | 'readLines' | 'readBytes' | 'writeFile'> = {
  readFile: (path) => readFile(path, 'utf8'),
  readBytes: async (path) => new Uint8Array(await readFile(path)),
  writeFile: (path, data) => writeFile(path, data),
  fileSize: async (path) => (await stat(path)).size,
  readLines: (path) => readLines(path),
};
