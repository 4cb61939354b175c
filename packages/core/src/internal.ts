/**
 * `@toolscout/core/internal`: helpers that adapters and tools share with core so that no package
 * keeps a copy of its own. Not part of the user-facing API: it may change in any minor release.
 */
export { describeValue, isRecord } from './values.js';
