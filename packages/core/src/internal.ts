/**
 * `@toolscout/core/internal`: helpers that adapters and tools share with core so that no package
 * keeps a copy of its own. Not part of the user-facing API: it may change in any minor release.
 */

export { checkFor, markerOf } from './errors.js';
export { failureReason, quoteKey } from './stores/key-value-store.js';
export { MAX_TIMER_MS } from './stores/loaded-tool-store.js';
export { threadKey } from './tool-search-session.js';
export { describeValue, isRecord } from './values.js';
