import { readFileSync } from 'node:fs';
import {
  type CatalogFormat,
  importCatalog,
  parseQueriesJsonl,
  type RetrievalQuery,
  type SearchHit,
  ToolCatalog,
  ToolIndex,
  ToolscoutError,
} from '@toolscout/core';

/** Somewhere to write text: `process.stdout`, or a test's collector. */
export interface CliOutput {
  write(text: string): unknown;
}

/** What the CLI touches outside itself, so tests can run it in memory. */
export interface CliIO {
  /** Results: table rows, or JSON lines with `--json`, and nothing else. */
  stdout: CliOutput;
  /** Usage errors, input errors and progress notes. */
  stderr: CliOutput;
  /** Reads a file (relative to the working directory) as UTF-8 text. */
  readFile: (path: string) => Promise<string>;
}

/** Exit codes: 0 done, 1 bad input (a file missing or malformed), 2 bad usage (options, arguments). */
export const EXIT_OK = 0;
export const EXIT_INPUT_ERROR = 1;
export const EXIT_USAGE_ERROR = 2;

const DEFAULT_LIMIT = 10;
const FORMATS: readonly CatalogFormat[] = ['jsonl', 'mcp', 'openai', 'anthropic'];

/** A mistake in the command line (exit code 2). */
export class UsageError extends ToolscoutError {
  constructor(message: string) {
    super('cli-usage', message);
    this.name = 'UsageError';
  }

  static override isInstance(error: unknown): error is UsageError {
    return ToolscoutError.isInstance(error) && error.code === 'cli-usage';
  }
}

/** A file the CLI cannot read (exit code 1). */
export class InputFileError extends ToolscoutError {
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('cli-input-file', message, options);
    this.name = 'InputFileError';
  }

  static override isInstance(error: unknown): error is InputFileError {
    return ToolscoutError.isInstance(error) && error.code === 'cli-input-file';
  }
}

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
  --format <format>    Read the catalog as jsonl, mcp, openai or anthropic instead of detecting it.
  --queries <file>     Search every request in a JSON Lines file ({"id", "query", "relevant"} per
                       line) instead of one query given as an argument.
  --limit <n>          How many tools per query, a positive integer (default ${DEFAULT_LIMIT}).
  --min-score <x>      Drop tools scoring below x, a number from 0 to 1 (default: the index's).
  --json               Print one JSON line per query: {"query", "hits"} for a single query,
                       {"id", "hits"} with --queries; hits are [{"id", "score"}], best first.
                       Nothing else goes to stdout; notes go to stderr.
  -h, --help           Show this help.
  -V, --version        Show the version.

Exit codes: 0 done, 1 bad input (file missing or malformed), 2 bad usage.

Examples:
  toolscout search "get the lyrics of a song" --catalog tools.jsonl --limit 5
  toolscout search --catalog tools.jsonl --queries queries.jsonl --json > results.jsonl
`;

type OptionName = 'catalog' | 'format' | 'queries' | 'limit' | 'min-score' | 'json' | 'help' | 'version';

const VALUE_OPTIONS = new Set<OptionName>(['catalog', 'format', 'queries', 'limit', 'min-score']);
const FLAG_OPTIONS = new Set<OptionName>(['json', 'help', 'version']);
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
        throw new UsageError(
          `--${name} needs a value${name === 'catalog' || name === 'queries' ? ' (a file path)' : ''}`,
        );
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
  };
  if (query !== undefined) parsed.query = query;
  if (queries !== undefined) parsed.queries = queries;
  if (values.has('min-score')) parsed.minScore = parseMinScore(values.get('min-score')!);
  if (values.has('format')) parsed.format = parseFormat(values.get('format')!);
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
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : error instanceof Error
              ? error.message
              : String(error);
    throw new InputFileError(path, `cannot read the ${what} file "${path}": ${reason}`, { cause: error });
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

const ID_WIDTH = 48;
const DESCRIPTION_WIDTH = 72;

function table(hits: readonly SearchHit[], catalog: ToolCatalog): string {
  // Ids are printed whole (they are what other commands and code take); long ones only break the alignment.
  const idWidth = Math.min(ID_WIDTH, Math.max(2, ...hits.map((hit) => hit.id.length)));
  const rows = [`${'rank'.padStart(4)}  score  ${'id'.padEnd(idWidth)}  description`];
  hits.forEach((hit, index) => {
    const description = cut(oneLine(catalog.get(hit.id)?.description ?? ''), DESCRIPTION_WIDTH);
    const id = hit.id.padEnd(idWidth);
    rows.push(`${String(index + 1).padStart(4)}  ${hit.score.toFixed(3)}  ${id}  ${description}`.trimEnd());
  });
  return `${rows.join('\n')}\n`;
}

function jsonHits(hits: readonly SearchHit[]): { id: string; score: number }[] {
  return hits.map((hit) => ({ id: hit.id, score: hit.score }));
}

async function search(command: SearchCommand, io: CliIO): Promise<number> {
  const started = performance.now();
  const catalogText = await readInput(io, command.catalog, 'catalog');
  const options: { file: string; format?: CatalogFormat } = { file: command.catalog };
  if (command.format !== undefined) options.format = command.format;
  const catalog = new ToolCatalog(importCatalog(catalogText, options));
  let queries: RetrievalQuery[] | undefined;
  if (command.queries !== undefined) {
    const queriesText = await readInput(io, command.queries, 'queries');
    queries = parseQueriesJsonl(queriesText, { file: command.queries });
  }
  if (catalog.size === 0) io.stderr.write(`toolscout: warning: the catalog "${command.catalog}" holds no tools\n`);
  const index = new ToolIndex(catalog);
  const searchOptions: { limit: number; minScore?: number } = { limit: command.limit };
  if (command.minScore !== undefined) searchOptions.minScore = command.minScore;

  try {
    if (queries === undefined) {
      const query = command.query!;
      const hits = await index.search(query, searchOptions);
      if (command.json) {
        io.stdout.write(`${JSON.stringify({ query, hits: jsonHits(hits) })}\n`);
      } else if (hits.length === 0) {
        io.stdout.write(`No tool matched "${query}" (out of ${catalog.size} tools).\n`);
      } else {
        io.stdout.write(table(hits, catalog));
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
        io.stdout.write(hits.length === 0 ? '  (no tool matched)\n' : table(hits, catalog));
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
