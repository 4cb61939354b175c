import { PolicyTimeoutError } from '../errors.js';
import { MAX_TIMER_MS } from '../stores/loaded-tool-store.js';
import type { CatalogTool } from '../types.js';
import type { TelemetryEmitter } from './telemetry.js';

/**
 * When the policy is asked:
 * - `search`: may the tool appear in search results, suggestions and catalog listings?
 * - `load`: may the model load (or discover, or describe) it?
 * - `active`: may a loaded or pinned tool be offered at this step (or, in `proxy` mode, be
 *   described and run through `call_tool`)?
 * - `call`: may this call run?
 *
 * Every way to reach a tool asks every phase it implies, in every mode; a refused load, description
 * or call reads exactly like one of a tool that does not exist (`active` is asked at each step, so
 * a load it would refuse still succeeds: the tool is just not offered):
 *
 * | mode          | find it                | get it                         | offered | run it                           |
 * | ------------- | ---------------------- | ------------------------------ | ------- | -------------------------------- |
 * | `search-load` | `search_tools`: search | `load_tool`: load              | active  | a call: call                     |
 * | `auto-load`   | `search_tools`: search | (the same search): load        | active  | a call: call                     |
 * | `catalog`     | the listing: search    | `discover_tools`: load         | active  | a call: call                     |
 * | `proxy`       | `search_tools`: search | `describe_tool`: load, active  | (never) | `call_tool`: load, active, call  |
 * | pinned tools  | (always offered)       |                                | active  | a call: call                     |
 *
 * A "did you mean" suggestion names only tools allowed at search, load and active. A call of a
 * catalog tool that is not offered is answered "load it first" only when the way to load it is
 * allowed (load and active; in `auto-load` also search), else like an unknown tool. Finding is
 * optional: a tool hidden from `search` alone is still reached by its exact name, except in
 * `auto-load` mode, where searching is the only way to load.
 */
export type PolicyPhase = 'search' | 'load' | 'active' | 'call';

/** What a policy filter is asked about. */
export interface PolicyRequest<TTool = unknown> {
  toolId: string;
  tool: CatalogTool<TTool>;
  phase: PolicyPhase;
  /** The host's request context, as given to the step. */
  context: unknown;
  threadId?: string;
  resourceId?: string;
  /** For `call`: the arguments of the call. */
  input?: unknown;
  /**
   * Aborted (with a `PolicyTimeoutError`) when the operation stops waiting for the answer (see
   * `filterTimeoutMs`): hand it to the requests an async filter makes.
   */
  signal?: AbortSignal;
}

/**
 * Decides whether a tool is allowed. Sync or async. A filter that throws or rejects means "not
 * allowed" (fail closed), and the session reports a `blocked` event with reason `filter-error`; one
 * that does not answer within `filterTimeoutMs` also means "not allowed" (reason `filter-timeout`).
 */
export type PolicyFilter<TTool = unknown> = (request: PolicyRequest<TTool>) => boolean | Promise<boolean>;

/** How long one operation waits for the policy filter by default, in ms. */
export const DEFAULT_FILTER_TIMEOUT_MS = 5_000;

/** The longest timeout a timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_FILTER_TIMEOUT_MS = MAX_TIMER_MS;

/** The policy's answer: allowed, or why not. */
export type PolicyAnswer =
  | { allowed: true }
  | { allowed: false; reason: 'denied' | 'filter-error' | 'filter-timeout'; error?: unknown };

const ALLOWED: PolicyAnswer = { allowed: true };
const DENIED: PolicyAnswer = { allowed: false, reason: 'denied' };
const TIMED_OUT = Symbol('timed out');

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The policy as one operation (a step's preparation, a search, one call of a tool or meta-tool)
 * asks it, failing closed. A sync answer is taken as it is. The first async answer starts the
 * operation's clock: answers still pending `timeoutMs` later count as "not allowed" (the shared
 * signal is aborted), and from then on the filter is not asked again (fail closed at once). So an
 * operation waits for a filter that never answers, or answers slowly for many tools, at most
 * `timeoutMs` in all. No timer outlives the ask it bounds.
 */
export class PolicyGate<TTool = unknown> {
  readonly #filter: PolicyFilter<TTool> | undefined;
  readonly #timeoutMs: number;
  #deadline: number | undefined;
  #controller: AbortController | undefined;

  constructor(filter: PolicyFilter<TTool> | undefined, timeoutMs: number = DEFAULT_FILTER_TIMEOUT_MS) {
    this.#filter = filter;
    this.#timeoutMs = timeoutMs;
  }

  /** Asks the filter about one tool in one phase. */
  async ask(request: Omit<PolicyRequest<TTool>, 'signal'>): Promise<PolicyAnswer> {
    const filter = this.#filter;
    if (!filter) return ALLOWED;
    if (this.#deadline !== undefined && Date.now() >= this.#deadline) return this.#timedOut(request);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      this.#controller ??= new AbortController();
      const answer = filter({ ...request, signal: this.#controller.signal });
      if (!isPromiseLike(answer)) return answer === true ? ALLOWED : DENIED;
      this.#deadline ??= Date.now() + this.#timeoutMs;
      const deadline = this.#deadline;
      const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), TIMED_OUT);
      });
      const settled = await Promise.race([answer, expiry]);
      if (settled === TIMED_OUT) return this.#timedOut(request);
      return settled === true ? ALLOWED : DENIED;
    } catch (error) {
      return { allowed: false, reason: 'filter-error', error };
    } finally {
      clearTimeout(timer);
    }
  }

  #timedOut(request: Omit<PolicyRequest<TTool>, 'signal'>): PolicyAnswer {
    const error = new PolicyTimeoutError(request.toolId, request.phase, this.#timeoutMs);
    if (this.#controller && !this.#controller.signal.aborted) this.#controller.abort(error);
    return { allowed: false, reason: 'filter-timeout', error };
  }
}

/** The policy as one operation asks it: is the tool allowed at each of these phases, in order? */
export type PolicyCheck<TTool> = (
  tool: CatalogTool<TTool>,
  phases: readonly PolicyPhase[],
  input?: unknown,
) => Promise<boolean>;

/** Who an operation's policy asks about (the request's part of each {@link PolicyRequest}). */
export type PolicyAsker = Partial<Pick<PolicyRequest, 'context' | 'threadId' | 'resourceId'>>;

/**
 * The policy for one operation of a request: one {@link PolicyGate} (one deadline) for all its
 * asks, the phases asked in order until one refuses; `always` tools are allowed without asking,
 * and each refusal is handed to `blocked`.
 */
export function policyCheck<TTool>(
  filter: PolicyFilter<TTool> | undefined,
  timeoutMs: number | undefined,
  request: PolicyAsker,
  always: (tool: CatalogTool<TTool>) => boolean,
  blocked: (tool: CatalogTool<TTool>, phase: PolicyPhase, answer: PolicyAnswer & { allowed: false }) => void,
): PolicyCheck<TTool> {
  const gate = new PolicyGate(filter, timeoutMs);
  return async (tool, phases, input) => {
    if (always(tool)) return true;
    for (const phase of phases) {
      const answer = await gate.ask({
        toolId: tool.id,
        tool,
        phase,
        context: request.context,
        threadId: request.threadId,
        resourceId: request.resourceId,
        input: phase === 'call' ? input : undefined,
      });
      if (answer.allowed) continue;
      blocked(tool, phase, answer);
      return false;
    }
    return true;
  };
}

/** A session's {@link policyCheck} for one operation of `request`: each refusal reported as a `blocked` event. */
export function sessionPolicyCheck<TTool>(
  options: { filter?: PolicyFilter<TTool>; filterTimeoutMs?: number },
  request: PolicyAsker,
  always: (tool: CatalogTool<TTool>) => boolean,
  emit: TelemetryEmitter['emit'],
): PolicyCheck<TTool> {
  const { threadId, resourceId } = request;
  return policyCheck(options.filter, options.filterTimeoutMs, request, always, (tool, phase, answer) =>
    emit({ type: 'blocked', threadId, resourceId, toolId: tool.id, phase, reason: answer.reason }),
  );
}
