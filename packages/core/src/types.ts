import type { StandardSchemaV1 } from '@standard-schema/spec';

/** A JSON Schema object, as tools declare their input (`type: 'object'` for tool inputs). */
export type JsonSchema = { [key: string]: unknown };

/**
 * A Standard Schema that can also describe itself as JSON Schema (Standard JSON Schema, e.g. zod 4,
 * valibot, arktype). toolscout validates arguments through `~standard.validate` and shows the model
 * the JSON Schema.
 */
export type SchemaLike = JsonSchema | StandardSchemaV1;

/** MCP tool annotations (hints about a tool's behaviour), kept as given. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** What a tool execution receives besides its arguments. */
export interface ToolExecutionContext {
  /** The id of the tool being run. */
  toolId: string;
  /** The request's thread id, when the host has one. */
  threadId?: string;
  /** The request's resource (user, tenant) id, when the host has one. */
  resourceId?: string;
  /** The host's own request context (Mastra's RequestContext, LangChain's runtime context, ...). */
  context?: unknown;
  /** Aborts a running call. */
  abortSignal?: AbortSignal;
  /**
   * Per-call data of the host framework, passed through unchanged from `step.execute(..., { host })`
   * (the AI SDK's tool call options, Mastra's execution context, LangChain's runtime, ...).
   */
  host?: unknown;
}

/**
 * A framework-neutral tool. Adapters convert their framework's tools to descriptors and keep the
 * original object in `tool`, so nothing is lost on the way back.
 *
 * @typeParam TTool - the framework's own tool type (a Mastra tool, an AI SDK tool, ...).
 */
export interface ToolDescriptor<TTool = unknown> {
  /** Unique within a catalog. May contain any character; see `toolName` for what providers see. */
  id: string;
  /** The tool's own name; not unique across sources. Defaults to `id`. */
  name?: string;
  /** Free text for the model and for ranking. May be empty. */
  description?: string;
  /** The tool's input: plain JSON Schema, or a Standard Schema object that can produce one. */
  inputSchema?: SchemaLike;
  /** The tool's output, when it declares one (MCP `outputSchema`). */
  outputSchema?: JsonSchema;
  /** Free-form labels (category, vendor); searchable. */
  tags?: readonly string[];
  /** The API, server or namespace the tool belongs to; searchable, and named in duplicate-id errors. */
  source?: string;
  /** MCP annotations, kept as given. */
  annotations?: ToolAnnotations;
  /**
   * Other names `load_tool` and calls accept for the tool (e.g. a framework's record key that
   * differs from the id). Each must be a valid tool name (`^[a-zA-Z0-9_-]{1,64}$`), unique in the
   * catalog among ids, tool names and aliases. Search shows the tool's own name; a tool loaded by an
   * alias is offered under that alias (the first name a thread loads it under).
   */
  aliases?: readonly string[];
  /** Always offered to the model, never needs to be searched or loaded. */
  pinned?: boolean;
  /** Runs the tool. Used by `proxy` mode's `call_tool` and by hosts that let core execute tools. */
  execute?: (args: unknown, context: ToolExecutionContext) => unknown | Promise<unknown>;
  /** The framework's own tool object, opaque to core. */
  tool?: TTool;
  /** Anything else an adapter wants to carry along. */
  metadata?: Record<string, unknown>;
  /**
   * Makes the tool **deferred**: the descriptor carries what search needs (id, description, tags,
   * source, an input schema if known) and `resolve` fetches the rest (the input schema, `execute`,
   * ...) when the model loads the tool, for catalogs whose schemas are expensive to fetch (remote
   * connectors). Search and indexing never call it. Loading calls it once per request context
   * (cached by the request's `context` object, else by thread), and so does a later step that
   * offers the loaded tool; what it returns is merged over the descriptor and validated like one.
   * A resolve that throws, rejects or takes longer than the session's `resolveTimeoutMs` leaves
   * the tool unloaded: the model is told it could not be loaded, and a step withholds it.
   *
   * @example
   * ```ts
   * { id: 'crm_find_contact', description: 'Find a CRM contact by name', source: 'crm',
   *   resolve: async ({ signal }) => fetchToolDefinition('crm_find_contact', { signal }) }
   * ```
   */
  resolve?: (context: ToolResolveContext) => Promise<ResolvedTool<TTool>>;
}

/** What a deferred tool's `resolve` receives. */
export interface ToolResolveContext {
  /** The id of the tool being resolved. */
  toolId: string;
  /** The request's thread id, when the host has one. */
  threadId?: string;
  /** The request's resource (user, tenant) id, when the host has one. */
  resourceId?: string;
  /** The host's own request context (e.g. whose credentials to fetch the definition with). */
  context?: unknown;
  /** Aborted when the session stops waiting (see `resolveTimeoutMs`). */
  signal: AbortSignal;
}

/**
 * What a deferred tool's `resolve` returns: the parts of the descriptor fetched on load. Each given
 * field replaces the descriptor's; the id, name and searchable metadata stay the descriptor's.
 */
export type ResolvedTool<TTool = unknown> = Pick<
  ToolDescriptor<TTool>,
  'description' | 'inputSchema' | 'outputSchema' | 'annotations' | 'execute' | 'tool' | 'metadata'
>;

/**
 * A tool as a catalog holds it: the descriptor plus the provider-safe `toolName` and the input
 * schema resolved to JSON Schema.
 */
export interface CatalogTool<TTool = unknown> extends ToolDescriptor<TTool> {
  /** The descriptor's name, or its id when it has none. */
  name: string;
  /** `^[a-zA-Z0-9_-]{1,64}$`: unique in the catalog, stable across restarts, reversible. */
  toolName: string;
  /** The input schema as JSON Schema (`{ type: 'object' }` when the tool declared none). */
  jsonSchema: JsonSchema;
  /**
   * Set on the tool as offered under one of its aliases (`ToolCatalog.getByAlias`): the tool's own
   * `toolName`, while `toolName` is the alias.
   */
  aliasOf?: string;
}

/** Which fields of a tool a query term matched. */
export type SearchField = 'name' | 'description' | 'tags' | 'parameters';

/** One ranked tool. */
export interface SearchHit {
  id: string;
  /** Relevance in [0, 1]; see the index's documentation for the rule. */
  score: number;
  /** Query terms (after tokenisation) and the fields each matched in; empty for vector-only hits. */
  matches: Record<string, SearchField[]>;
  /** Why the tool matched (query words, where, how); only with the search option `explain: true`. */
  reasons?: MatchReason[];
}

/** Where a query word was found in a tool: its name (or id), description, tags, source, or a parameter. */
export type MatchReasonField = 'name' | 'description' | 'tags' | 'source' | 'parameter';

/** One reason a tool matched a query: a query word (or two side by side), where it was found, and how. */
export interface MatchReason {
  /** The query's word as typed (lower case); for a phrase, its two words. */
  query: string;
  /** The indexed term it matched (a stem): the query's own, a longer word it starts, a near spelling, a pair. */
  matched: string;
  /** Where it was found. */
  field: MatchReasonField;
  /** `exact`, `prefix` (starts a longer word), `typo` (one or two letters off) or `phrase` (two words side by side). */
  how: 'exact' | 'prefix' | 'typo' | 'phrase';
  /** The parameter's name (dotted for nested properties), for a `parameter` match. */
  parameter?: string;
}

/** Decides whether a tool may appear in results. Asked only as often as needed to fill `limit`. */
export type SearchFilter = (toolId: string) => boolean | Promise<boolean>;

export interface SearchOptions {
  /** How many hits at most. Default 10. */
  limit?: number;
  /** Hits scoring below this (in [0, 1]) are dropped. Default: the index's `minScore`. */
  minScore?: number;
  /** Keeps only the tools it allows; lower-ranked allowed tools fill the freed places. */
  filter?: SearchFilter;
  /** Adds each hit's `reasons` (computed for the returned hits only, after ranking). Default false. */
  explain?: boolean;
}

/** Turns texts into vectors, in batches. */
export interface Embedder {
  /** Identifies the model (and its settings): cached vectors are keyed by it. */
  readonly id: string;
  embed(texts: string[]): Promise<number[][]>;
}
