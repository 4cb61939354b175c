import { InvalidArgumentError } from '../errors.js';

/** Something a source offers, under the source's own name for it. */
export interface SourceItem {
  /** The source's name. */
  source: string;
  /** The item's name (or URI) as the source knows it. */
  name: string;
}

/** Separates a source from an item's name, as from a tool id: `github__summarize_pr`. */
export const NAME_SEPARATOR = '__';
/** Separates a source from an item's URI: `files+file:///notes.md`. */
export const URI_SEPARATOR = '+';

/**
 * The names of items that several sources offer (prompts, documents), namespaced per source so that
 * names of two sources never collide and each leads back to its source; see the README for the two
 * schemes (`<source>__<name>`, `<source>+<uri>`).
 */
export class SourceNames {
  readonly #sources: ReadonlySet<string>;
  readonly #namespace: boolean;
  /** The URI prefix (before `+`) of each source. */
  readonly #byUriPrefix: ReadonlyMap<string, string>;

  /** `namespace: false` keeps the items' own names, for exactly one source. */
  constructor(sources: readonly string[], namespace = true) {
    if (!namespace && sources.length !== 1) {
      throw new InvalidArgumentError(
        'namespace',
        `Names without a source namespace need exactly one source (names are unique only within one source); got ${sources.length}.`,
      );
    }
    for (const source of sources) {
      const problem = sourceNameProblem(source);
      if (namespace && problem) {
        throw new InvalidArgumentError('sources', `Source name ${JSON.stringify(source)} ${problem}.`);
      }
    }
    this.#sources = new Set(sources);
    this.#namespace = namespace;
    this.#byUriPrefix = new Map(sources.map((source) => [uriPrefixOf(source), source]));
  }

  /** The namespaced name of a source's item: `<source>__<name>`. */
  name(source: string, name: string): string {
    return this.#namespace ? `${this.#known(source)}${NAME_SEPARATOR}${name}` : name;
  }

  /** The namespaced URI (or URI template) of a source's item: `<source with . for _>+<uri>`. */
  uri(source: string, uri: string): string {
    return this.#namespace ? `${uriPrefixOf(this.#known(source))}${URI_SEPARATOR}${uri}` : uri;
  }

  /** The source and its own name of a namespaced name; undefined when it names no source. */
  resolveName(name: string): SourceItem | undefined {
    if (!this.#namespace) return this.#only(name);
    const at = name.indexOf(NAME_SEPARATOR);
    if (at <= 0) return undefined;
    const source = name.slice(0, at);
    return this.#sources.has(source) ? { source, name: name.slice(at + NAME_SEPARATOR.length) } : undefined;
  }

  /**
   * The source and its own URI of a namespaced URI, or of a URI without a source when exactly one of
   * `offering` (the sources that have URIs) is named; undefined when it leads to no source.
   */
  resolveUri(uri: string, offering: readonly string[] = []): SourceItem | undefined {
    if (!this.#namespace) return this.#only(uri);
    const at = uri.indexOf(URI_SEPARATOR);
    const source = at > 0 ? this.#byUriPrefix.get(uri.slice(0, at)) : undefined;
    if (source !== undefined) return { source, name: uri.slice(at + URI_SEPARATOR.length) };
    return offering.length === 1 ? { source: this.#known(offering[0]!), name: uri } : undefined;
  }

  #known(source: string): string {
    if (this.#sources.has(source)) return source;
    throw new InvalidArgumentError(
      'source',
      `Unknown source ${JSON.stringify(source)}: the names know ${[...this.#sources].map((s) => JSON.stringify(s)).join(', ') || 'none'}.`,
    );
  }

  #only(name: string): SourceItem {
    return { source: this.#sources.values().next().value!, name };
  }
}

/**
 * Why `source` cannot namespace names (empty, holds `__`, `.` or `+`, ends with `_`: names would be
 * ambiguous), or undefined when it can.
 */
export function sourceNameProblem(source: string): string | undefined {
  if (source.length === 0) return 'is empty';
  if (source.includes(NAME_SEPARATOR)) return `contains "${NAME_SEPARATOR}", which separates a source from a name`;
  if (source.endsWith('_')) return `ends with "_", which would make "${NAME_SEPARATOR}" ambiguous`;
  if (source.includes('.')) return 'contains ".", which stands for "_" in URIs';
  if (source.includes(URI_SEPARATOR)) return `contains "${URI_SEPARATOR}", which separates a source from a URI`;
  return undefined;
}

function uriPrefixOf(source: string): string {
  return source.replaceAll('_', '.');
}
