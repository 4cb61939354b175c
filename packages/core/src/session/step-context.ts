import type { CatalogTool } from '../types.js';
import type { ResolvedCodeMode } from './code/code-options.js';
import type { MetaToolRole, ToolSearchMode } from './meta-tools.js';
import type { PolicyCheck, PolicyPhase } from './policy.js';
import type { ScoredTool } from './session-search.js';
import type { StepRequest } from './step-types.js';
import type { TelemetryEmitter } from './telemetry.js';
import type { ToolSearchStep } from './tool-search-step.js';

/**
 * What a {@link ToolSearchStep} asks of its session: the session hands each step this object
 * instead of exposing these as public methods of its own.
 */
export interface StepContext<TTool> {
  readonly mode: ToolSearchMode;
  /** The session's instructions for the model's system channel (undefined: none). */
  readonly instructions: string | undefined;
  /** Code mode's sandbox and limits (in code mode only). */
  readonly code?: ResolvedCodeMode;
  /** The name the model sees for a meta-tool role, when this mode has it. */
  metaToolName(role: MetaToolRole): string | undefined;
  /** The direct or catalog tool a model-facing name or an id refers to (never one shadowed by a meta-tool). */
  resolve(name: string): CatalogTool<TTool> | undefined;
  /** Whether a tool is one of the session's direct tools (given in `tools`). */
  isDirect(tool: CatalogTool<TTool>): boolean;
  /**
   * The policy for one operation of a request (a step's preparation, a search, one call): one
   * deadline for its asks (`filterTimeoutMs`), each refusal reported as a `blocked` event. Direct
   * tools are always allowed.
   */
  policyFor(request: StepRequest): PolicyCheck<TTool>;
  /**
   * The policy phases of the way to get a catalog tool offered (or, in proxy mode, run through
   * `call_tool`), which a "not loaded" answer sends the model down.
   */
  loadPhases(): readonly PolicyPhase[];
  /** Searches as `session.search` does, within an operation's policy check. */
  search(query: string, request: StepRequest, allowed: PolicyCheck<TTool>): Promise<ScoredTool<TTool>[]>;
  /**
   * Tool names to suggest for a name that is unknown (or hidden): ranked by the name's first
   * characters (`MODEL_INPUT_LIMITS.echoLength`), allowed at search, load and active, never the
   * tool the name itself refers to (refused, since it is being suggested against).
   */
  suggest(name: string, allowed: PolicyCheck<TTool>): Promise<string[]>;
  /**
   * The tool as it is loaded and run: itself, or for a deferred tool its resolved entry (once per
   * request context); undefined when its `resolve` failed (reported as a `resolve` event).
   */
  ready(tool: CatalogTool<TTool>, request: StepRequest): Promise<CatalogTool<TTool> | undefined>;
  /** Characters of a tool description kept in search results. */
  descriptionBudget(): number;
  /**
   * Keeps newly loaded tools: in the store, or, where loads are read back from the conversation,
   * nowhere, but refused past the same cap as a store's (the conversation would drop them unread).
   * `loadedCount` is how many tools the thread has loaded with these.
   */
  remember(request: StepRequest, ids: readonly string[], loadedCount: number): Promise<void>;
  /** Reports a telemetry event to the session's listeners. */
  emit: TelemetryEmitter['emit'];
  /** Records (with the `feedback` option) a catalog tool the model called after a search of its thread. */
  called(request: StepRequest, tool: CatalogTool<TTool>, ok: boolean): Promise<void>;
  /** Keeps `step` for the tool calls the model made at it (see `ToolSearchStep.expectCalls`). */
  expectCalls(step: ToolSearchStep<TTool>, callIds: Iterable<string>): void;
}
