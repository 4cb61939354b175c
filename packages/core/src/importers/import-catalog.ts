import { ImportError, type ImportLocation } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import { fromAnthropicTools } from './anthropic.js';
import { describeValue, type ImporterOptions, isRecord } from './fields.js';
import { parseToolsJsonl } from './jsonl.js';
import { fromMcpTools } from './mcp.js';
import { fromOpenAITools } from './openai.js';

/**
 * The catalog formats `importCatalog` reads:
 * - `jsonl`: JSON Lines, one `{ id, name, description, parameters, tags?, source? }` per line;
 * - `mcp`: an MCP `tools/list` result `{ tools: [{ name, inputSchema, ... }] }` (or the JSON-RPC
 *   response around it), or a bare array of MCP tools;
 * - `openai`: an array (or `{ tools: [...] }`) of OpenAI function tools, Chat Completions or Responses shape;
 * - `anthropic`: an array (or `{ tools: [...] }`) of Anthropic tool definitions (`input_schema`).
 */
export type CatalogFormat = 'jsonl' | 'mcp' | 'openai' | 'anthropic';

/** Options for {@link importCatalog}. */
export interface ImportCatalogOptions extends ImporterOptions {
  /** Skip detection and read the text as this format. */
  format?: CatalogFormat;
}

const EXPECTED =
  'expected JSON Lines of tools ({"id", "name", "description", "parameters"} per line), an MCP tools/list result ({"tools": [...]}), or an array of OpenAI or Anthropic tool definitions';

function where(file: string | undefined, field?: string): ImportLocation {
  const location: ImportLocation = {};
  if (file !== undefined) location.file = file;
  if (field !== undefined) location.field = field;
  return location;
}

type ToolKind = 'mcp' | 'openai' | 'anthropic' | 'unknown';

const LABELS = { mcp: 'an MCP', openai: 'an OpenAI', anthropic: 'an Anthropic' } as const;

function kindOf(tool: unknown): ToolKind {
  if (!isRecord(tool)) return 'unknown';
  if ('input_schema' in tool) return 'anthropic';
  if ('inputSchema' in tool) return 'mcp';
  if (tool.type === 'function' || isRecord(tool.function) || 'parameters' in tool) return 'openai';
  if (typeof tool.type === 'string') return 'anthropic';
  return 'unknown';
}

/** The format of a list of tool definitions: the kind all recognisable entries agree on. */
function listFormat(tools: readonly unknown[], file: string | undefined, prefix: string): CatalogFormat {
  let found: { kind: Exclude<ToolKind, 'unknown'>; index: number } | undefined;
  tools.forEach((tool, index) => {
    const kind = kindOf(tool);
    if (kind === 'unknown') return;
    if (found === undefined) found = { kind, index };
    else if (found.kind !== kind) {
      throw new ImportError(
        `mixes tool formats: ${prefix}[${found.index}] is ${LABELS[found.kind]} tool, ${prefix}[${index}] is ${LABELS[kind]} tool`,
        where(file),
      );
    }
  });
  // Entries without schema fields (just a name) read the same in every format; MCP is the most lenient.
  return found?.kind ?? 'mcp';
}

interface Detected {
  format: CatalogFormat;
  /** The parsed document, for the JSON formats. */
  document?: unknown;
}

function detect(text: string, file: string | undefined): Detected {
  if (typeof text !== 'string') throw new ImportError(`expected catalog text, got ${describeValue(text)}`, where(file));
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') throw new ImportError(`is empty: ${EXPECTED}`, where(file));
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    const firstLine = body.slice(0, body.indexOf('\n') === -1 ? undefined : body.indexOf('\n')).trim();
    if (body.includes('\n') && firstLine.startsWith('{')) return { format: 'jsonl' };
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportError(`is not valid JSON or JSON Lines (${reason}); ${EXPECTED}`, where(file), { cause: error });
  }
  if (Array.isArray(document)) return { format: listFormat(document, file, ''), document };
  if (!isRecord(document)) throw new ImportError(`holds ${describeValue(document)}; ${EXPECTED}`, where(file));
  if (Array.isArray(document.tools)) return { format: listFormat(document.tools, file, 'tools'), document };
  if (isRecord(document.result) && Array.isArray(document.result.tools)) {
    return { format: 'mcp', document: document.result };
  }
  if (typeof document.id === 'string') return { format: 'jsonl' };
  throw new ImportError(`is a JSON object without a "tools" array; ${EXPECTED}`, where(file));
}

/**
 * Tells which format a catalog file is in, from its content (see {@link CatalogFormat}). Throws
 * ImportError when it is none of them (empty, not JSON, a JSON document without tools).
 */
export function detectCatalogFormat(text: string, options: Pick<ImporterOptions, 'file'> = {}): CatalogFormat {
  return detect(text, options.file).format;
}

/**
 * Reads a catalog file in any supported format (detected from the content unless `format` is given)
 * into tool descriptors. Errors are ImportErrors naming the file, line and field.
 */
export function importCatalog(text: string, options: ImportCatalogOptions = {}): ToolDescriptor[] {
  const { format: forced, ...rest } = options;
  if (forced === 'jsonl') return parseToolsJsonl(text, rest);
  const detected = detect(text, options.file);
  const format = forced ?? detected.format;
  if (format === 'jsonl') return parseToolsJsonl(text, rest);
  const document = detected.document;
  if (document === undefined) {
    throw new ImportError(`is JSON Lines, not a JSON document: it cannot be read as ${format}`, where(options.file));
  }
  switch (format) {
    case 'mcp':
      return fromMcpTools(document as unknown[], rest);
    case 'openai':
      return fromOpenAITools(document as unknown[], rest);
    case 'anthropic':
      return fromAnthropicTools(document as unknown[], rest);
  }
}
