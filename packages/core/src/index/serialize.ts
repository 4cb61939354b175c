import type { ToolCatalog } from '../catalog/catalog.js';
import { IndexMismatchError, InvalidIndexError } from '../errors.js';
import type { CatalogTool } from '../types.js';
import { describeNumber, isRecord } from '../values.js';
import { indexIntegrity } from './index-integrity.js';
import type { KeywordIndex, SerializedKeywordIndex } from './keyword-index.js';
import { keywordIndexFromJSON } from './keyword-index-reader.js';
import { PhraseIndex, type SerializedPhraseIndex } from './phrase-index.js';
import { LOOKUP_FIELDS } from './scorer.js';
import { INDEX_FIELDS, toolFingerprint } from './tool-document.js';
import type { ToolIndexOptions } from './tool-index.js';
import type { ToolSources } from './tool-sources.js';
import { type SerializedVectorIndex, VectorIndex } from './vector-index.js';

/**
 * The format version written by {@link ToolIndex.toJSON}; {@link ToolIndex.fromJSON} reads only this.
 * Version 4 added the `integrity` hash and numbers documents 0, 1, 2... in order.
 */
export const TOOL_INDEX_FORMAT_VERSION = 4;

/** A {@link ToolIndex} as plain JSON (see {@link ToolIndex.toJSON}). */
export interface SerializedToolIndex {
  /** Always `toolscout-tool-index`. */
  format: 'toolscout-tool-index';
  /** {@link TOOL_INDEX_FORMAT_VERSION} at the time of writing. */
  version: number;
  /** A fingerprint of every indexed tool's text, by id: tells whether a catalog still matches. */
  tools: Record<string, string>;
  /** The keyword index (see `KeywordIndex`): per-term postings by field, field lengths, vocabulary. */
  keyword: SerializedKeywordIndex;
  /** The phrase index (see `PhraseIndex`): each tool's name and description lines, as keyword terms. */
  phrases: SerializedPhraseIndex;
  /** The embedded tools, when the index was hybrid (see `VectorIndex.toJSON`). */
  vector?: SerializedVectorIndex;
  /**
   * A hash of `tools`, `keyword`, `phrases` and `vector` (16 hexadecimal digits), checked on load:
   * it catches accidental damage and naive edits, not someone who recomputes it (see
   * `indexIntegrity`).
   */
  integrity: string;
}

/** The parts of an index read back from a saved one (the vectors only for an index with an embedder). */
export interface SavedIndexes {
  keyword: KeywordIndex;
  phrases: PhraseIndex;
  /** Absent when the index has no embedder, or the saved one has no vector section. */
  vector: VectorIndex | undefined;
  /**
   * The catalog's tools' sources, when the load tracked them as it checked each tool (while the
   * tool is in the cache); else the index tracks them.
   */
  sources?: ToolSources;
}

/**
 * A saved index's content for `catalog` (see `ToolIndex.toJSON`): the fingerprints of the catalog's
 * tools (the index holds exactly them: it follows every change), the keyword, phrase and vector
 * sections, a format version and an integrity hash.
 */
export function serializeIndex<T>(catalog: ToolCatalog<T>, indexes: SavedIndexes): SerializedToolIndex {
  const content = {
    tools: Object.fromEntries(Array.from(catalog, (tool) => [tool.id, toolFingerprint(tool)])),
    ...savedSections(indexes),
  };
  return {
    format: 'toolscout-tool-index',
    version: TOOL_INDEX_FORMAT_VERSION,
    ...content,
    integrity: indexIntegrity(content),
  };
}

/**
 * The sections a saved index holds, in either format (JSON or binary): the keyword, phrase and
 * vector sections, documents numbered 0, 1, 2... and phrase terms as positions in the keyword
 * section's vocabulary. (Each format has its own fingerprint of the tools.)
 */
export function savedSections({
  keyword: keywordIndex,
  phrases,
  vector,
}: SavedIndexes): Omit<SerializedToolIndex, 'format' | 'version' | 'integrity' | 'tools'> {
  const keyword = keywordIndex.toJSON();
  const positions = new Map(keyword.terms.map(([term], position) => [keywordIndex.get(term)!.id, position]));
  // (the keyword section numbers documents anew, in order: the phrase section follows it)
  const numbers = new Int32Array(keywordIndex.nextDoc);
  for (const [number, id] of keyword.documents) numbers[keywordIndex.docOf(id)!] = number;
  return {
    keyword,
    phrases: phrases.toJSON(
      (id) => positions.get(id)!,
      (doc) => numbers[doc]!,
    ),
    ...(vector ? { vector: vector.toJSON() } : {}),
  };
}

/**
 * The indexes of a saved index for `catalog`, every part checked (see `ToolIndex.fromJSON` for the
 * errors); the vector section is read only when `options` has an embedder.
 */
export function loadSavedIndexes<T>(
  catalog: ToolCatalog<T>,
  json: SerializedToolIndex | string,
  options: ToolIndexOptions,
): SavedIndexes {
  const document = parseSerialized(json);
  const saved = document.tools;
  checkCatalogMatches(
    catalog,
    Object.keys(saved).length,
    (tool) => (Object.hasOwn(saved, tool.id) ? saved[tool.id] === toolFingerprint(tool) : undefined),
    () => Object.keys(saved),
  );
  let keyword: KeywordIndex;
  let phrases: PhraseIndex;
  try {
    keyword = keywordIndexFromJSON(document.keyword, INDEX_FIELDS.length, LOOKUP_FIELDS);
    const terms = document.keyword.terms;
    phrases = PhraseIndex.fromJSON(
      document.phrases,
      (position) => {
        const term = terms[position]?.[0];
        return term === undefined ? undefined : keyword.get(term)?.id;
      },
      keyword.size,
    );
  } catch (error) {
    throw damaged(error instanceof Error ? error.message : String(error), error);
  }
  const ids = Object.keys(document.tools);
  if (
    keyword.size !== ids.length ||
    phrases.size !== ids.length ||
    !ids.every((id) => {
      const doc = keyword.docOf(id);
      return doc !== undefined && phrases.has(doc);
    })
  ) {
    throw damaged('its keyword or phrase section does not hold the tools it lists');
  }
  if (indexIntegrity(document) !== document.integrity) {
    throw new InvalidIndexError(
      `The saved tool index failed its integrity check: its content is not what was saved (changed or damaged since). ${REBUILD}`,
    );
  }
  const tools = document.tools;
  const vector =
    options.embedder && document.vector !== undefined
      ? loadVectors(document.vector, (id) => Object.hasOwn(tools, id), options)
      : undefined;
  return { keyword, phrases, vector };
}

/**
 * The vector section of a saved index, whose tools must be the index's (`indexed`); a section that
 * cannot be used (another embedder, malformed) is an `invalid-index` error.
 */
export function loadVectors(
  section: SerializedVectorIndex,
  indexed: (id: string) => boolean,
  options: ToolIndexOptions,
): VectorIndex {
  for (const list of [section.entries, section.pending] as unknown[]) {
    if (!Array.isArray(list)) continue; // (VectorIndex.fromJSON says what is wrong)
    for (const item of list as unknown[]) {
      const id = isRecord(item) ? item.id : undefined;
      if (typeof id === 'string' && !indexed(id)) {
        throw damaged(`its vector section has tool "${id}", which it does not list`);
      }
    }
  }
  try {
    return VectorIndex.fromJSON(section, {
      embedder: options.embedder!,
      ...(options.embeddingCache ? { cache: options.embeddingCache } : {}),
    });
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    throw new InvalidIndexError(
      `The saved tool index's vector section cannot be used (${problem}). Rebuild the index from the catalog (new ToolIndex(catalog, { embedder })) and save it again.`,
      { cause: error },
    );
  }
}

/** What to do about a saved index that cannot be loaded. */
export const REBUILD = 'Rebuild the index from the catalog (new ToolIndex(catalog)) and save it again.';

/** The error of a saved index whose content is malformed. */
export function damaged(problem: string, cause?: unknown): InvalidIndexError {
  return new InvalidIndexError(
    `The saved tool index is damaged (${problem}). ${REBUILD}`,
    cause === undefined ? undefined : { cause },
  );
}

function parseSerialized(json: SerializedToolIndex | string): SerializedToolIndex {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new InvalidIndexError(`The saved tool index is not JSON: ${String(error)}`, { cause: error });
    }
  }
  if (!isRecord(value) || value.format !== 'toolscout-tool-index') {
    throw new InvalidIndexError(
      'Not a saved tool index: expected an object with format "toolscout-tool-index" (from ToolIndex.toJSON()).',
    );
  }
  checkVersion(value.version);
  if (!isRecord(value.tools) || !isRecord(value.keyword) || !isRecord(value.phrases)) {
    throw damaged('it lacks its "tools", "keyword" or "phrases" section');
  }
  for (const id in value.tools) {
    if (typeof value.tools[id] !== 'string') throw damaged(`the fingerprint of tool "${id}" is not a string`);
  }
  if (value.vector !== undefined && !isRecord(value.vector)) throw damaged('its "vector" section is not an object');
  if (typeof value.integrity !== 'string') throw damaged('it has no "integrity" hash');
  return value as unknown as SerializedToolIndex;
}

/** Refuses a saved index of another format version, saying how it differs. */
function checkVersion(version: unknown): void {
  if (version === TOOL_INDEX_FORMAT_VERSION) return;
  const wanted = `this toolscout reads format version ${TOOL_INDEX_FORMAT_VERSION}`;
  let problem: string;
  if (typeof version === 'number' && Number.isInteger(version) && version > 0) {
    const by = version < TOOL_INDEX_FORMAT_VERSION ? 'an older' : 'a newer';
    problem = `The saved tool index has format version ${version}, written by ${by} toolscout; ${wanted}.`;
  } else if (version === undefined) {
    problem = `The saved tool index has no "version"; ${wanted}.`;
  } else {
    const shown =
      typeof version === 'string' ? `the string ${JSON.stringify(version.slice(0, 40))}` : describeNumber(version);
    problem = `The saved tool index's "version" is ${shown}, where a positive integer is expected; ${wanted}.`;
  }
  throw new InvalidIndexError(`${problem} ${REBUILD}`);
}

/**
 * Throws an {@link IndexMismatchError} unless the catalog's tools are exactly the saved ones, each
 * unchanged: `count` tools were saved, `unchanged` says whether a tool is as saved (undefined when
 * its id was not saved), `savedIds` lists them (to name one the catalog lacks).
 */
export function checkCatalogMatches<T>(
  catalog: ToolCatalog<T>,
  count: number,
  unchanged: (tool: CatalogTool<T>) => boolean | undefined,
  savedIds: () => Iterable<string>,
): void {
  let seen = 0;
  for (const tool of catalog) {
    seen += 1;
    const same = unchanged(tool);
    if (same === undefined) {
      throw new IndexMismatchError(
        `The saved tool index does not match the catalog: tool "${tool.id}" is not in it. Rebuild the index.`,
        tool.id,
      );
    }
    if (!same) {
      throw new IndexMismatchError(
        `The saved tool index does not match the catalog: tool "${tool.id}" changed since it was indexed. Rebuild the index.`,
        tool.id,
      );
    }
  }
  if (count !== seen) {
    let missing: string | undefined;
    for (const id of savedIds()) {
      if (!catalog.has(id)) {
        missing = id;
        break;
      }
    }
    throw new IndexMismatchError(
      `The saved tool index does not match the catalog: it indexed ${count} tools, the catalog has ${seen}${missing ? ` (e.g. "${missing}" is gone)` : ''}. Rebuild the index.`,
      missing,
    );
  }
}
