// Deferred tools (a descriptor with `resolve`): what the catalog holds is metadata; the input
// schema and the implementation are fetched when the model loads the tool, once per request
// context, bounded in time, and never reported as loaded when the fetch fails.
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { MAX_TIMER_MS } from '../stores/loaded-tool-store.js';
import type { CatalogTool, ToolDescriptor } from '../types.js';
import { isRecord } from '../values.js';
import type { CallFailure } from './messages.js';
import { RecentByThread } from './recent-by-thread.js';
import type { OfferedTool, StepRequest } from './step-types.js';
import type { TelemetryEmitter } from './telemetry.js';
import { threadKey } from './thread-key.js';

/** How long a deferred tool's `resolve` may take by default, in ms. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 10_000;
/** Threads whose resolved tools are kept, for requests without a context object. */
const MAX_RESOLVED_THREADS = 1_000;

/** Session options of deferred tools. */
export interface DeferredToolOptions {
  /**
   * How long loading (or offering) a deferred tool waits for its `resolve`, in ms; then the tool
   * counts as not loadable at this request (its `signal` is aborted). Between 1 and 2,147,483,647.
   * Default 10,000.
   */
  resolveTimeoutMs?: number;
}

/** Why a resolve failed, as a `resolve` telemetry event reports it. */
export type ResolveFailure = 'resolve-failed' | 'resolve-timeout' | 'invalid-tool';

/** The `resolveTimeoutMs` option, checked. */
function checkResolveTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_RESOLVE_TIMEOUT_MS;
  if (typeof value === 'number' && value >= 1 && value <= MAX_TIMER_MS) return value;
  throw new InvalidOptionError(
    'resolveTimeoutMs',
    `resolveTimeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(value)}.`,
  );
}

/** What the model reads when some tools it asked for could not be loaded (their resolve failed). */
export function couldNotLoad(toolNames: readonly string[]): string {
  return `Could not load: ${toolNames.join(', ')}: the tool's definition could not be fetched right now. Try again later or use another tool.`;
}

/** A tool error for a call (proxy mode) of a deferred tool whose resolve failed. */
export function unavailableTool(toolName: string): CallFailure {
  return { ok: false, error: { code: 'unavailable', toolName, message: couldNotLoad([toolName]) } };
}

type Resolved<TTool> = CatalogTool<TTool> | ResolveFailure;
type ResolvedCache<TTool> = WeakMap<CatalogTool<TTool>, Promise<Resolved<TTool>>>;

/**
 * Resolves deferred tools for a session: each catalog entry once per request context (the
 * request's `context` when it is an object, else its thread, else the request object itself),
 * keyed by the entry, so a replaced catalog tool is resolved again. Only successes are kept: a
 * failed resolve is tried again at the next load or step. Every resolve is reported as a
 * `resolve` event.
 */
export class DeferredTools<TTool> {
  readonly #byObject = new WeakMap<object, ResolvedCache<TTool>>();
  /** Per thread key (requests whose context is not an object), the most recent threads only. */
  readonly #byThread = new RecentByThread<ResolvedCache<TTool>>(MAX_RESOLVED_THREADS);

  readonly timeoutMs: number;

  /**
   * Checks `resolveTimeoutMs` ({@link InvalidOptionError}) and that no direct tool (`tools`
   * option, offered as given at every step) is deferred.
   */
  constructor(
    timeoutMs: unknown,
    directTools: readonly CatalogTool<TTool>[],
    readonly emit: TelemetryEmitter['emit'],
  ) {
    this.timeoutMs = checkResolveTimeout(timeoutMs);
    const deferred = directTools.find((tool) => tool.resolve !== undefined);
    if (deferred !== undefined) {
      throw new InvalidOptionError(
        'tools',
        `Tool "${deferred.id}" has resolve (a deferred tool), but direct tools are offered as given; put it in the catalog.`,
      );
    }
  }

  /**
   * What a step offers of these tools, in order: each as it is, a deferred one as resolved for the
   * request (all resolved at once, so a step waits for the slowest, not their sum); a deferred one
   * whose resolve fails is withheld.
   */
  async offers(
    tools: readonly (readonly [CatalogTool<TTool>, OfferedTool<TTool>['kind']])[],
    request: StepRequest,
  ): Promise<OfferedTool<TTool>[]> {
    const ready = await Promise.all(tools.map(([tool]) => this.ready(tool, request, 'offer')));
    return ready.flatMap((tool, i) =>
      tool === undefined
        ? []
        : [
            {
              kind: tools[i]![1],
              name: tool.toolName,
              description: tool.description ?? '',
              inputSchema: tool.jsonSchema,
              tool,
            },
          ],
    );
  }

  /**
   * The tool ready to offer and run: the tool itself when it is not deferred, else its resolved
   * entry (resolved now, or earlier for this request context); undefined when resolving failed.
   * `purpose` says what it is for in the `resolve` event: `load` (a meta-tool loads it) or `offer`
   * (a step offers a loaded tool, which it withholds when this fails).
   */
  async ready(
    tool: CatalogTool<TTool>,
    request: StepRequest,
    purpose: 'load' | 'offer',
  ): Promise<CatalogTool<TTool> | undefined> {
    if (tool.resolve === undefined) return tool;
    const cache = this.#cacheFor(request);
    const cached = cache.get(tool);
    if (cached !== undefined) {
      const result = await cached;
      return typeof result === 'string' ? undefined : result;
    }
    const started = performance.now();
    const pending = this.#resolve(tool, request);
    cache.set(tool, pending);
    const result = await pending;
    const event = { type: 'resolve', threadId: request.threadId, resourceId: request.resourceId, toolId: tool.id };
    const latencyMs = performance.now() - started;
    if (typeof result !== 'string') {
      this.emit({ ...event, type: 'resolve', purpose, ok: true, latencyMs });
      return result;
    }
    if (cache.get(tool) === pending) cache.delete(tool);
    this.emit({ ...event, type: 'resolve', purpose, ok: false, latencyMs, error: result });
    return undefined;
  }

  /** Forgets every resolved tool kept by thread (those kept by context objects go with them). */
  clear(): void {
    this.#byThread.clear();
  }

  #cacheFor(request: StepRequest): ResolvedCache<TTool> {
    const { context } = request;
    const owner =
      (typeof context === 'object' && context !== null) || typeof context === 'function' ? context : undefined;
    const key = owner === undefined ? threadKey(request) : undefined;
    if (key !== undefined) {
      const cache = this.#byThread.get(key) ?? new WeakMap();
      this.#byThread.set(key, cache);
      return cache;
    }
    const target = owner ?? request;
    let cache = this.#byObject.get(target);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#byObject.set(target, cache);
    }
    return cache;
  }

  /** Runs the tool's `resolve` within the timeout and builds the resolved entry. */
  async #resolve(tool: CatalogTool<TTool>, request: StepRequest): Promise<Resolved<TTool>> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expiry = new Promise<'resolve-timeout'>((settle) => {
      timer = setTimeout(settle, this.timeoutMs, 'resolve-timeout');
    });
    try {
      const resolving = Promise.resolve().then(() =>
        tool.resolve?.({
          toolId: tool.id,
          threadId: request.threadId,
          resourceId: request.resourceId,
          context: request.context,
          signal: controller.signal,
        }),
      );
      const resolved = await Promise.race([resolving, expiry]);
      if (resolved === 'resolve-timeout') {
        const message = `Resolving tool "${tool.id}" took longer than ${this.timeoutMs} ms.`;
        controller.abort(new DOMException(message, 'TimeoutError'));
        resolving.catch(() => {}); // settles later, unread
        return resolved;
      }
      return resolvedEntry(tool, resolved);
    } catch {
      return 'resolve-failed';
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The fields a resolve may set; the rest of what it returns is ignored. */
const RESOLVED_FIELDS = ['description', 'inputSchema', 'outputSchema', 'annotations', 'execute', 'tool', 'metadata'];

/**
 * The catalog entry of a resolved tool: the descriptor with the resolved fields over it, without
 * `resolve`, validated as a catalog validates a descriptor (same id, so the same `toolName`).
 */
function resolvedEntry<TTool>(tool: CatalogTool<TTool>, resolved: unknown): Resolved<TTool> {
  if (!isRecord(resolved)) return 'invalid-tool';
  const { resolve: _resolve, toolName: _toolName, jsonSchema, ...descriptor } = tool;
  const merged: Record<string, unknown> = { ...descriptor, inputSchema: tool.inputSchema ?? jsonSchema };
  for (const field of RESOLVED_FIELDS) if (resolved[field] !== undefined) merged[field] = resolved[field];
  try {
    return new ToolCatalog([merged as unknown as ToolDescriptor<TTool>]).get(tool.id) ?? 'invalid-tool';
  } catch {
    return 'invalid-tool';
  }
}
