import type { PolicyPhase } from './policy.js';

interface EventBase {
  threadId?: string;
  resourceId?: string;
  /** Milliseconds since the epoch. */
  time: number;
}

/** A `search_tools` call. */
export interface SearchEvent extends EventBase {
  type: 'search';
  query: string;
  hits: { id: string; score: number }[];
  latencyMs: number;
}

/** A load: `load_tool`, an auto-load search, or a catalog-mode discovery. */
export interface LoadEvent extends EventBase {
  type: 'load';
  requested: string[];
  loaded: string[];
  alreadyLoaded: string[];
  notFound: string[];
}

/** A call of a catalog tool that ran (or failed while running). */
export interface CallEvent extends EventBase {
  type: 'call';
  toolId: string;
  ok: boolean;
  latencyMs: number;
  /** The error code when `ok` is false. */
  error?: string;
}

/** The policy kept a tool out. */
export interface BlockedEvent extends EventBase {
  type: 'blocked';
  toolId: string;
  phase: PolicyPhase;
  /**
   * `denied`: the filter said no; `filter-error`: it threw (fail closed); `filter-timeout`: it did
   * not answer within `filterTimeoutMs` (fail closed).
   */
  reason: 'denied' | 'filter-error' | 'filter-timeout';
}

/** The model called something it could not, and was told how to correct itself. */
export interface SelfCorrectionEvent extends EventBase {
  type: 'self-correction';
  kind: 'not-loaded' | 'unknown-tool' | 'invalid-arguments';
  toolName: string;
  suggestions: string[];
}

/** A step was prepared: what the model is offered. */
export interface StepEvent extends EventBase {
  type: 'step';
  offered: string[];
  loaded: string[];
  /**
   * o200k tokens of the offered tool definitions (as `session.measureStep` counts them), only when
   * a listener asked for them (`subscribe(listener, { offeredTokens: true })`, as `traceToolSearch`
   * does): counting loads the tokenizer, so no step pays for it otherwise.
   */
  offeredTokens?: number;
}

/**
 * A preselection for a user message (the `preselect` option), made once per message: the tools it
 * made loaded, or why it made none (the step proceeds without them).
 */
export interface PreselectEvent extends EventBase {
  type: 'preselect';
  /** `search`: the session searched the message; `select`: the host's `preselect.select` chose. */
  source: 'search' | 'select';
  /** The preselected catalog tool ids, best first, as the policy allowed them. */
  toolIds: string[];
  /** What the selector returned that is no catalog tool (ignored), when it returned any. */
  unknown?: string[];
  /**
   * Set when nothing was preselected because of a failure: `error` (the selection threw or
   * rejected), `timeout` (it did not answer within `preselect.timeoutMs`), `tool-limit` (the
   * thread's store is full).
   */
  failed?: 'error' | 'timeout' | 'tool-limit';
  /** The error, for `error` and `tool-limit`. */
  error?: unknown;
  latencyMs: number;
}

/**
 * A deferred tool's `resolve` ran: for a load (`purpose: 'load'`: when it failed, the tool was not
 * loaded) or for a step offering a loaded tool (`purpose: 'offer'`: when it failed, the tool was
 * withheld at that step).
 */
export interface ResolveEvent extends EventBase {
  type: 'resolve';
  toolId: string;
  purpose: 'load' | 'offer';
  ok: boolean;
  latencyMs: number;
  /** Why it failed, when `ok` is false: it threw or rejected, timed out, or returned an unusable tool. */
  error?: 'resolve-failed' | 'resolve-timeout' | 'invalid-tool';
}

/**
 * A `run_tool_code` run (code mode): the bridge calls it made, how long it took, the sandbox's
 * memory, and how it ended. Each search and call it made has its own event too.
 */
export interface CodeRunEvent extends EventBase {
  type: 'code';
  /** The sandbox's name (e.g. `quickjs`). */
  sandbox: string;
  /**
   * `returned`: the code returned a value; `threw`: it threw (a refused tool call it did not catch
   * included); `timed-out`: the wall-clock limit stopped it; `over-budget`: `limit` stopped it.
   */
  ended: 'returned' | 'threw' | 'timed-out' | 'over-budget';
  /** The limit an `over-budget` run hit. */
  limit?: 'memory' | 'bridge-calls';
  /** Bridge calls made, by kind (the one over the cap not counted). */
  calls: { search: number; describe: number; call: number };
  /** The catalog tools it ran (ok or failed while running), in call order. */
  toolIds: string[];
  latencyMs: number;
  /** The sandbox heap in use when the run ended, in bytes (when the sandbox can tell). */
  memoryBytes?: number;
  /** What the model is told, when it did not return. */
  error?: string;
}

export type ToolSearchEvent =
  | SearchEvent
  | LoadEvent
  | CallEvent
  | BlockedEvent
  | SelfCorrectionEvent
  | StepEvent
  | PreselectEvent
  | ResolveEvent
  | CodeRunEvent;

/** Receives every event of a session. A throwing listener is ignored; it never breaks a step. */
export type ToolSearchEventListener = (event: ToolSearchEvent) => void;

/** What a listener asks of the events besides their default fields. */
export interface SubscribeOptions {
  /**
   * Count the tokens of each step's offered tool definitions into the step event's `offeredTokens`:
   * always, or at the steps where the function says so (asked at each step).
   */
  offeredTokens?: boolean | (() => boolean);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the emitter stamps its time. */
export type UnstampedEvent = DistributiveOmit<ToolSearchEvent, 'time'>;

/** Fans events out to listeners. */
export class TelemetryEmitter {
  private readonly listeners = new Set<ToolSearchEventListener>();
  private readonly tokenListeners = new Map<ToolSearchEventListener, () => boolean>();

  subscribe(listener: ToolSearchEventListener, options: SubscribeOptions = {}): () => void {
    this.listeners.add(listener);
    const wants = options.offeredTokens;
    if (wants !== undefined && wants !== false) this.tokenListeners.set(listener, wants === true ? () => true : wants);
    return () => {
      this.listeners.delete(listener);
      this.tokenListeners.delete(listener);
    };
  }

  /** Whether a listener asked for step events' `offeredTokens`. */
  get wantsOfferedTokens(): boolean {
    for (const wants of this.tokenListeners.values()) if (wants()) return true;
    return false;
  }

  emit(event: UnstampedEvent): void {
    if (this.listeners.size === 0) return;
    const stamped = { ...event, time: Date.now() } as ToolSearchEvent;
    for (const listener of this.listeners) {
      try {
        listener(stamped);
      } catch {
        // A listener's failure is its own; telemetry never changes what the model sees.
      }
    }
  }
}
