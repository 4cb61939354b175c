import type { CatalogTool, JsonSchema, ToolDescriptor } from '../types.js';
import type { ConversationEntry } from './conversation.js';
import type { MetaToolRole } from './meta-tools.js';

/** What the session needs to know about the request at a step. */
export interface StepRequest {
  /** The conversation thread; loaded tools are remembered per thread (and resource). */
  threadId?: string;
  /** The user or tenant the thread belongs to; part of the state key. */
  resourceId?: string;
  /** The host's request context; handed to the policy and to executed tools. */
  context?: unknown;
  /** The tool calls and results so far (needed by the `conversation` strategy and without a thread id). */
  conversation?: readonly ConversationEntry[];
  /**
   * Loaded tools kept by the host itself (tool names or ids, in load order), e.g. in a framework's
   * checkpointed agent state. When given, it replaces the strategy's own state for this step; loads
   * made during the step are still reported in `load_tool` results for the host to keep.
   */
  loaded?: readonly string[];
  /**
   * Tools that arrive with this request (a framework's per-request toolsets, an MCP client's
   * tools): searchable and loadable in this request only, withheld until loaded like catalog
   * tools, and run through the descriptor given here (never one cached from another request). A
   * request tool with a catalog tool's id replaces it for this request; one named like a direct
   * tool or a meta-tool is left out. Indexed incrementally: a tool already indexed (same id,
   * description, tags, source and parameters) costs a lookup, so pass the same list at every
   * step. Invalid descriptors are an `InvalidToolError`, two with one id a `DuplicateToolError`.
   */
  tools?: Iterable<ToolDescriptor<unknown>>;
  /**
   * The names of the tools the host offers the model itself at this step (a framework agent's own
   * tools). They win: a catalog tool whose model-facing name or alias is one of them is not offered
   * by the session at this step, `load_tool` answers that it is already available, and search
   * leaves it out.
   */
  hostTools?: readonly string[];
}

/** Options of `prepareStep`. */
export interface PrepareStepOptions {
  /**
   * Leave out the `step` telemetry event, for hosts that prepare a step for something other than a
   * model call (an MCP `tools/list`, a resumed approval). Default false.
   */
  quiet?: boolean;
  /**
   * Objects of the host's that stand for this step and come back with each of its tool calls (the
   * AI SDK's messages array of the step): `session.stepFor(key, request)` returns this step for any
   * of them, as long as the host keeps the object. For hosts that know the calls' ids instead, see
   * `ToolSearchStep.expectCalls`.
   */
  keys?: readonly object[];
}

/** One tool offered to the model at a step. */
export interface OfferedTool<TTool = unknown> {
  /** `meta`: a meta-tool; `direct`: given in `tools`; `pinned`: a pinned catalog tool; `loaded`. */
  kind: 'meta' | 'direct' | 'pinned' | 'loaded';
  /** The name the model sees and calls. */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** The meta-tool's role, for `meta`. */
  role?: MetaToolRole;
  /** The catalog tool, for everything but `meta`. */
  tool?: CatalogTool<TTool>;
  /**
   * `true` for a `loaded` tool the session preselected for a user message (the `preselect` option)
   * rather than one the model loaded. It behaves as any loaded tool (`load_tool` answers "already
   * loaded"). Under a store, known for the preselections this process made.
   */
  preselected?: true;
}

/** Why a call did not run. Every code comes with a message written for the model. */
export type ToolCallErrorCode =
  | 'unknown-tool'
  | 'not-loaded'
  | 'invalid-arguments'
  | 'execution-failed'
  | 'not-executable'
  /** A deferred tool whose definition could not be fetched (its `resolve` failed). */
  | 'unavailable';

export interface ToolCallError {
  code: ToolCallErrorCode;
  /** What the model reads: what went wrong and the call that fixes it. */
  message: string;
  toolName: string;
  suggestions?: string[];
  issues?: { path: string; message: string }[];
  cause?: unknown;
}

/** Options of one call through `ToolSearchStep.execute`. */
export interface ExecuteOptions {
  /** Aborts a running call; handed to the tool's `execute`. */
  abortSignal?: AbortSignal;
  /** Per-call data of the host framework, handed to the tool's `execute` as `context.host`. */
  host?: unknown;
}

export type ToolCallOutcome =
  | {
      ok: true;
      output: unknown;
      /** The catalog tool that ran, for calls of catalog and direct tools. */
      toolId?: string;
      /**
       * The tools this call loaded (model-facing names, in load order; new loads only), for meta-tool
       * calls that loaded any. A host that keeps loaded tools itself (`StepRequest.loaded`) appends
       * them to its list; a host that offers tools per connection tells the client its list changed.
       */
      loaded?: readonly string[];
    }
  | { ok: false; error: ToolCallError };

/** A call the session allows: the tool and its validated input. */
export type CallAuthorization<TTool> =
  | { ok: true; tool: CatalogTool<TTool>; input: unknown }
  | { ok: false; error: ToolCallError };

/** Per-step token figures: what is offered against offering the whole catalog. */
export interface StepTokenReport {
  offered: { tools: number; bytes: number; tokens: number };
  catalog: { tools: number; bytes: number; tokens: number };
  /** `catalog.tokens - offered.tokens`. */
  savedTokens: number;
  /** `offered.tokens / catalog.tokens`. */
  ratio: number;
}
