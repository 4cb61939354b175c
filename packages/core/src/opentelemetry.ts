// @toolscout/core/opentelemetry: the session's telemetry as OpenTelemetry spans. Needs
// `@opentelemetry/api` (an optional peer); without an SDK registered, its spans are no-ops.
export { type TracedSession, type TraceToolSearchOptions, traceToolSearch } from './session/opentelemetry-spans.js';
