// Catalogs larger than the CLI reads whole: JSON Lines is read line by line (same tools, same
// errors as when read whole), anything else is refused with its size, the limit and what to do.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIO, MAX_WHOLE_FILE_BYTES, runCli } from './cli.js';
import { LineTooLongError, nodeFileIO, readLines } from './node-io.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolscout-cli-large-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the CLI on the real file system with a whole-file limit of `limit` bytes; counts whole reads. */
async function run(argv: string[], limit: number, io: Partial<CliIO> = {}) {
  let stdout = '';
  let stderr = '';
  const wholeReads: string[] = [];
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    ...nodeFileIO,
    readFile: (path) => {
      wholeReads.push(path);
      return nodeFileIO.readFile(path);
    },
    maxWholeFileBytes: limit,
    ...io,
  });
  return { code, stdout, stderr, wholeReads };
}

const tools = Array.from({ length: 40 }, (_, i) => ({
  id: `Api${i}__tool_${i}`,
  name: `tool ${i}`,
  description: i === 17 ? 'Returns the lyrics of a song by its title.' : `Does thing number ${i} with données ✓.`,
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
}));
const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line)).join('\n');

describe('a JSON Lines catalog over the whole-file limit', () => {
  it('is read line by line and searched like the same file read whole', async () => {
    const path = file('tools.jsonl', `\uFEFF${jsonl(tools)}\n\n`);
    const streamed = await run(['search', 'song lyrics', '--catalog', path, '--json'], 1024);
    const whole = await run(['search', 'song lyrics', '--catalog', path, '--json'], MAX_WHOLE_FILE_BYTES);
    expect(streamed.code).toBe(0);
    expect(streamed.wholeReads).toEqual([]);
    expect(whole.wholeReads).toEqual([path]);
    expect(streamed.stdout).toBe(whole.stdout);
    expect(JSON.parse(streamed.stdout).hits[0].id).toBe('Api17__tool_17');
    expect(streamed.stderr).toMatch(
      /^toolscout: reading the 0\.0 MiB catalog ".*tools\.jsonl" line by line \(JSON Lines\)\n$/,
    );
  });

  it('reads CRLF line ends, blank lines and a last line without a line break', async () => {
    const path = file('crlf.jsonl', `${jsonl(tools.slice(15, 18)).replaceAll('\n', '\r\n\r\n')}`);
    const streamed = await run(['search', 'song lyrics', '--catalog', path, '--json'], 10);
    expect(streamed.code).toBe(0);
    expect(JSON.parse(streamed.stdout).hits[0].id).toBe('Api17__tool_17');
    expect(streamed.stdout).toBe((await run(['search', 'song lyrics', '--catalog', path, '--json'], 10_000)).stdout);
  });

  it.each([
    ['malformed JSON', (lines: string[]) => lines.splice(5, 1, '{"id": "x",')],
    ['a missing id', (lines: string[]) => lines.splice(12, 1, '{"name": "no id"}')],
    ['a repeated id', (lines: string[]) => lines.splice(30, 1, lines[0] ?? '')],
    ['a line that is not an object', (lines: string[]) => lines.splice(8, 0, '[1, 2]')],
  ])('reports %s with the same file, line and field as when read whole', async (_, spoil) => {
    const lines = tools.map((tool) => JSON.stringify(tool));
    lines.splice(2, 0, '', '   ');
    spoil(lines);
    const path = file('bad.jsonl', lines.join('\n'));
    const streamed = await run(['search', 'x', '--catalog', path], 64);
    const whole = await run(['search', 'x', '--catalog', path], MAX_WHOLE_FILE_BYTES);
    expect(whole.code).toBe(1);
    expect(whole.stderr).toMatch(/line \d+/);
    expect(streamed.code).toBe(1);
    expect(streamed.stderr.split('\n').slice(-2).join('\n')).toBe(whole.stderr);
  });

  it('refuses a line longer than the line limit, naming the line', async () => {
    const path = file('long-line.jsonl', `${JSON.stringify(tools[0])}\n${'x'.repeat(5000)}\n`);
    const result = await run(['search', 'x', '--catalog', path], 64, { readLines: (p) => readLines(p, 1000) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `line 2 of the catalog file "${path}" is longer than 0.0 MiB, the most one JSON Lines line may have`,
    );
  });
});

describe('other files over the whole-file limit', () => {
  const mcp = JSON.stringify({ tools: tools.map((t) => ({ name: t.name, inputSchema: t.parameters })) });

  it.each([
    ['a one-line MCP document', mcp, []],
    ['a pretty-printed document', JSON.stringify({ tools: [] }, null, 2), []],
    ['an array of OpenAI tools', JSON.stringify([{ type: 'function', function: { name: 'a' } }]), []],
    ['JSON Lines read as --format mcp', jsonl(tools), ['--format', 'mcp']],
  ])('refuses %s, saying how large it is, the limit and what to do', async (_, text, flags) => {
    const path = file('doc.json', text);
    const result = await run(['search', 'x', '--catalog', path, ...flags], 10);
    expect(result.code).toBe(1);
    expect(result.wholeReads).toEqual([]);
    expect(result.stderr).toMatch(
      /^toolscout: the catalog file ".*doc\.json" is 0\.\d MiB, more than the 0\.0 MiB a JSON catalog document may have \(it is read whole\)\. Split it into several files, or convert it to JSON Lines \(one tool per line\), which is read line by line at any size\.\n$/,
    );
  });

  it('refuses a queries file over the limit', async () => {
    const catalog = file('small.jsonl', jsonl(tools.slice(0, 2)));
    const queries = file('queries.jsonl', jsonl([{ id: 'q', query: 'x', relevant: ['a'] }]).repeat(10));
    const result = await run(['search', '--catalog', catalog, '--queries', queries], 200);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /the queries file ".*queries\.jsonl" is 0\.0 MiB, more than the 0\.0 MiB a queries file/,
    );
  });

  it('still reports a missing file as missing', async () => {
    const result = await run(['search', 'x', '--catalog', join(dir, 'nope.jsonl')], 100);
    expect(result.stderr).toMatch(/cannot read the catalog file ".*nope\.jsonl": no such file/);
  });
});

describe('readLines', () => {
  it('decodes a character split across two read chunks, and keeps the last line without a break', async () => {
    // The reader takes 1 MiB chunks: put a 2-byte character across the first boundary.
    const first = `${'a'.repeat(2 ** 20 - 1)}é`;
    const path = file('split.txt', `${first}\nzwei ✓\r\nlast`);
    const lines: string[] = [];
    for await (const line of readLines(path)) lines.push(line);
    expect(lines).toEqual([first, 'zwei ✓\r', 'last']);
  });

  it('throws LineTooLongError for a line beyond the limit, also one split across chunks', async () => {
    const path = file('long.txt', `short\n${'y'.repeat(3 * 2 ** 20)}`);
    const lines: string[] = [];
    const error = await (async () => {
      for await (const line of readLines(path, 2 ** 20)) lines.push(line);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LineTooLongError);
    expect(error).toMatchObject({ line: 2, maxBytes: 2 ** 20 });
    expect(lines).toEqual(['short']);
  });
});
