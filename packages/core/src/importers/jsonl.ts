import { ImportError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import {
  assertUniqueIds,
  compact,
  describeNonText,
  describeValue,
  fieldError,
  type ImporterOptions,
  isRecord,
  isText,
  optionalObjectSchema,
  optionalString,
  optionalStringArray,
  otherFields,
  type RecordLocation,
  requiredString,
} from './fields.js';

/** A search request with the tools that serve it, as in a `queries.jsonl` file. */
export interface RetrievalQuery {
  /** Unique within the file. */
  id: string;
  /** The natural-language request. */
  query: string;
  /** Ids of the tools that serve the request (at least one). */
  relevant: string[];
  /** The dataset split, e.g. `G1_instruction` or `test_in_domain/easy`. */
  split?: string;
  /** Groups of ids any one of which fills the same relevant slot (one tool name offered by two servers). */
  alternatives?: string[][];
}

/** One parsed JSON Lines line with its 1-based line number. */
interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** Splits JSON Lines text into parsed objects; blank lines are skipped, anything else must be an object. */
function parseLines(text: string, file: string | undefined, what: string): JsonLine[] {
  if (typeof text !== 'string') {
    throw new ImportError(`expected JSON Lines text, got ${describeValue(text)}`, file === undefined ? {} : { file });
  }
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const parsed: JsonLine[] = [];
  lines.forEach((raw, index) => {
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (content.trim() === '') return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ImportError(`not valid JSON (${reason})`, file === undefined ? { line } : { file, line }, {
        cause: error,
      });
    }
    if (!isRecord(value)) {
      throw new ImportError(
        `expected one ${what} object per line, got ${describeValue(value)}`,
        file === undefined ? { line } : { file, line },
      );
    }
    parsed.push({ line, value });
  });
  return parsed;
}

const TOOL_FIELDS = ['id', 'name', 'description', 'parameters', 'tags', 'source'];

/**
 * Parses a `tools.jsonl` file: one `{ id, name, description, parameters, tags?, source? }` per line,
 * `parameters` a JSON Schema of type object or `null`. Blank lines are skipped; other fields go to
 * `metadata`; `options.source` fills in a missing `source`.
 *
 * Throws ImportError naming the file, the line and the field for a malformed line or a repeated id.
 */
export function parseToolsJsonl(text: string, options: ImporterOptions = {}): ToolDescriptor[] {
  const locations: RecordLocation[] = [];
  const tools = parseLines(text, options.file, 'tool').map(({ line, value }): ToolDescriptor => {
    const at: RecordLocation = { file: options.file, line, prefix: '' };
    locations.push(at);
    return compact<ToolDescriptor>({
      id: requiredString(value, 'id', at),
      name: optionalString(value, 'name', at) || undefined,
      description: optionalString(value, 'description', at),
      inputSchema: optionalObjectSchema(value, 'parameters', at),
      tags: optionalStringArray(value, 'tags', at),
      source: optionalString(value, 'source', at) ?? options.source,
      metadata: otherFields(value, TOOL_FIELDS),
    });
  });
  assertUniqueIds(tools, locations, 'id');
  return tools;
}

function requiredIdList(record: Record<string, unknown>, field: string, at: RecordLocation): string[] {
  const value = record[field];
  if (!Array.isArray(value)) throw fieldError(at, field, `must be an array of tool ids, got ${describeValue(value)}`);
  value.forEach((id, index) => {
    if (!isText(id)) {
      throw fieldError(at, `${field}[${index}]`, `must be a non-empty tool id string, got ${describeNonText(id)}`);
    }
  });
  return value as string[];
}

/**
 * Parses a `queries.jsonl` file: one `{ id, query, relevant: [tool ids], split?, alternatives? }` per
 * line (`alternatives`: groups of ids any one of which fills one relevant slot). Blank lines are
 * skipped.
 *
 * Throws ImportError naming the file, the line and the field for a malformed line, an empty
 * `relevant` list or a repeated id.
 */
export function parseQueriesJsonl(text: string, options: Pick<ImporterOptions, 'file'> = {}): RetrievalQuery[] {
  const firstLine = new Map<string, number>();
  return parseLines(text, options.file, 'query').map(({ line, value }): RetrievalQuery => {
    const at: RecordLocation = { file: options.file, line, prefix: '' };
    const id = requiredString(value, 'id', at);
    const earlier = firstLine.get(id);
    if (earlier !== undefined) throw fieldError(at, 'id', `duplicate query id "${id}" (first at line ${earlier})`);
    firstLine.set(id, line);
    const query = requiredString(value, 'query', at);
    const relevant = requiredIdList(value, 'relevant', at);
    if (relevant.length === 0) throw fieldError(at, 'relevant', 'must name at least one relevant tool id');
    const split = optionalString(value, 'split', at);
    let alternatives: string[][] | undefined;
    if (value.alternatives !== undefined && value.alternatives !== null) {
      if (!Array.isArray(value.alternatives)) {
        throw fieldError(
          at,
          'alternatives',
          `must be an array of tool id groups, got ${describeValue(value.alternatives)}`,
        );
      }
      alternatives = value.alternatives.map((group: unknown, index: number) => {
        if (!Array.isArray(group) || group.length === 0) {
          throw fieldError(
            at,
            `alternatives[${index}]`,
            `must be a non-empty array of tool ids, got ${Array.isArray(group) ? 'an empty array' : describeValue(group)}`,
          );
        }
        group.forEach((id: unknown, position: number) => {
          if (!isText(id)) {
            throw fieldError(
              at,
              `alternatives[${index}][${position}]`,
              `must be a non-empty tool id string, got ${describeNonText(id)}`,
            );
          }
        });
        return group as string[];
      });
    }
    return compact<RetrievalQuery>({ id, query, relevant, split, alternatives });
  });
}
