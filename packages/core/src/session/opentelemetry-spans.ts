import {
  type Attributes,
  context,
  ProxyTracerProvider,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { SubscribeOptions, ToolSearchEvent, ToolSearchEventListener } from './telemetry.js';

/** What {@link traceToolSearch} reads of a session: its mode and its telemetry events. */
export interface TracedSession {
  readonly mode: string;
  subscribe(listener: ToolSearchEventListener, options?: SubscribeOptions): () => void;
}

/** Options of {@link traceToolSearch}. */
export interface TraceToolSearchOptions {
  /**
   * The tracer to record spans with. Default: the `@toolscout/core` tracer of the global tracer
   * provider, a no-op until an OpenTelemetry SDK registers one.
   */
  tracer?: Tracer;
}

/** Fields that are not attributes: `query` is reported by its length only (it is the model's text). */
const LEFT_OUT = new Set(['type', 'time', 'query', 'hits', 'error']);

/**
 * Records an OpenTelemetry span for every telemetry event of the session (`toolscout.search`,
 * `toolscout.load`, `toolscout.call`, `toolscout.code`, `toolscout.step`, ...), timed by the event's
 * latency and a child of the span active when it happened (the framework's own tool-call span). Its
 * attributes are the event's fields as `toolscout.*` (the mode, the query's length, hits' ids and
 * scores, tool ids, a step's tokens offered as `toolscout.offered_tokens`, outcome); a failed call, resolve, preselect or code run sets the status to error.
 * Other listeners get every event as before. Returns the function that stops tracing.
 *
 * @example
 * ```ts
 * const stop = traceToolSearch(session); // spans go to the SDK your app registered
 * ```
 */
export function traceToolSearch(session: TracedSession, options: TraceToolSearchOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer('@toolscout/core');
  // Counting a step's tokens loads the tokenizer: only while the spans go somewhere.
  const offeredTokens = options.tracer ? true : sdkRegistered;
  return session.subscribe((event) => recordSpan(tracer, session.mode, event), { offeredTokens });
}

/** The provider the API hands out while no SDK is registered (a proxy's delegate before it gets one). */
const NO_SDK: TracerProvider = new ProxyTracerProvider().getDelegate();

/** Whether an OpenTelemetry SDK registered a global tracer provider (spans of the default tracer are recorded). */
function sdkRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_SDK;
}

function recordSpan(tracer: Tracer, mode: string, event: ToolSearchEvent): void {
  const latencyMs = 'latencyMs' in event ? event.latencyMs : 0;
  const span = tracer.startSpan(
    `toolscout.${event.type}`,
    { startTime: event.time - latencyMs, attributes: { 'toolscout.mode': mode, ...attributesOf(event) } },
    context.active(),
  );
  const failure = failureOf(event);
  if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  if (event.type === 'preselect' && event.error instanceof Error) span.recordException(event.error);
  span.end(event.time);
}

/** The event's fields as span attributes: primitives, lists of them, and nested objects' fields. */
function attributesOf(event: ToolSearchEvent): Attributes {
  const attributes: Attributes = {};
  if (event.type === 'search') {
    attributes['toolscout.query.length'] = event.query.length;
    attributes['toolscout.hits.count'] = event.hits.length;
    attributes['toolscout.hits.ids'] = event.hits.map((hit) => hit.id);
    attributes['toolscout.hits.scores'] = event.hits.map((hit) => hit.score);
  }
  if ('error' in event && typeof event.error === 'string') attributes['toolscout.error'] = event.error;
  addFields(attributes, 'toolscout', event);
  return attributes;
}

function addFields(attributes: Attributes, prefix: string, value: object): void {
  for (const [key, field] of Object.entries(value)) {
    if (LEFT_OUT.has(key) || field === undefined) continue;
    const name = `${prefix}.${key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
    if (typeof field === 'string' || typeof field === 'number' || typeof field === 'boolean') {
      attributes[name] = field;
    } else if (Array.isArray(field) && field.every((item) => typeof item === 'string')) {
      attributes[name] = field as string[];
    } else if (typeof field === 'object' && field !== null && !Array.isArray(field)) {
      addFields(attributes, name, field);
    }
  }
}

/** Why the event is a failure, or undefined when it is not one. */
function failureOf(event: ToolSearchEvent): string | undefined {
  switch (event.type) {
    case 'call':
    case 'resolve':
      return event.ok ? undefined : (event.error ?? 'failed');
    case 'code':
      return event.ended === 'returned' ? undefined : event.ended;
    case 'preselect':
      return event.failed;
    default:
      return undefined;
  }
}
