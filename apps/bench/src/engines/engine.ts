// What every engine of the benchmark offers: build an index over a catalog, then rank it for queries.
import type { ToolDescriptor } from '@toolscout/core';

/** The engines the benchmark compares. */
export type EngineName = 'toolscout' | 'toolscout-hybrid' | 'mastra' | 'ai-sdk' | 'bm25';

/** Options every engine is built with. */
export interface EngineBuildOptions {
  /** How many tools one search returns at most (Mastra's `topK`, the AI SDK's `maxResults`). */
  limit: number;
}

/** The serialised form of an index, where the engine has one (toolscout). */
export interface SerializationFigures {
  /** Bytes of the serialised index. */
  bytes: number;
  /** Milliseconds to load it back into a searchable index (parsing included). */
  loadMs: number;
  /** The saved index itself (for the cold-start measurement). */
  data: Uint8Array;
}

/** An engine's index over one catalog. */
export interface EngineIndex {
  /** Ranks the catalog for a request: tool ids (the descriptors' `id`), best first, at most the build `limit`. */
  search(query: string): Promise<string[]>;
  /** Serialises the index and loads it back, timing the load; only engines with a saved-index format. */
  measureSerialization?(): Promise<SerializationFigures>;
  /** Releases what the index holds (timers, subscriptions). */
  dispose?(): void;
  /** How this index was built, when a reader of the results should know (reported with them). */
  readonly note?: string;
}

/** A catalog in an engine's own shape, ready to be indexed. */
export interface PreparedCatalog {
  /** Builds the engine's index: what the benchmark times as "build" and measures the heap of. */
  build(options: EngineBuildOptions): Promise<EngineIndex>;
}

/** A ranking engine: its name, what it is, and how to build it. */
export interface RankingEngine {
  /** The name used on the command line and in the JSON. */
  readonly name: EngineName;
  /** One line for tables and the README. */
  readonly description: string;
  /**
   * Converts `tools` to the engine's own shape (e.g. Mastra `createTool` objects: what a user of that
   * framework already has), untimed. Throws {@link EngineUnavailableError} when the engine cannot run
   * on this machine (e.g. optional packages missing); any other error is a failure.
   */
  prepare(tools: readonly ToolDescriptor[]): Promise<PreparedCatalog>;
}

const unavailableMarker = Symbol.for('toolscout.bench.EngineUnavailableError');

/** An engine that cannot run here; the benchmark skips it and reports the message as a note. */
export class EngineUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineUnavailableError';
    Object.defineProperty(this, unavailableMarker, { value: true });
  }

  /** Recognises the error across two copies of this module. */
  static isInstance(error: unknown): error is EngineUnavailableError {
    return (
      typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[unavailableMarker] === true
    );
  }
}

/**
 * The names a catalog's tools get in an engine that keeps some names for its own tools (its search
 * meta-tool): each tool's provider-safe `toolName`, but a reserved one gets the first free
 * `<name>_2`, `<name>_3`, ... (free among every tool name and the reserved ones), so such a catalog
 * is ranked like any other; map the engine's answers back to ids by these names.
 */
export function engineToolNames(toolNames: readonly string[], reserved: readonly string[]): string[] {
  const taken = new Set([...toolNames, ...reserved]);
  return toolNames.map((name) => {
    if (!reserved.includes(name)) return name;
    let n = 2;
    while (taken.has(`${name}_${n}`)) n += 1;
    const renamed = `${name}_${n}`;
    taken.add(renamed);
    return renamed;
  });
}
