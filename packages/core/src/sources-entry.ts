/**
 * `@toolscout/core/sources`: tools and other offers (documents, prompts) read from live sources,
 * such as servers and APIs, kept in step with a catalog: a supervised connection to each source
 * (restarts with backoff, health checks), the mirroring of a source's list into a catalog, names
 * namespaced per source, listings merged over sources and paged with opaque cursors, and a search
 * index over offers that are not tools. Framework-neutral: an adapter (the MCP gateway) supplies the
 * connections and converts shapes.
 */
// A supervised connection to one source: status, restarts with backoff, health checks, fast failure while down

// A source's list of descriptors kept in step with a catalog (add / replace / remove of its own ids).
export { CatalogMirror, type CatalogMirrorOptions, type MirrorChanges } from './sources/catalog-mirror.js';
// An async task run one at a time, a request during a run making exactly one more run.
export { CoalescedTask } from './sources/coalesced-task.js';
// Listings merged over sources in order, one page at a time
export {
  DEFAULT_PAGE_SIZE,
  type ListedSource,
  type ListPage,
  MAX_PAGES_PER_LIST_PAGE,
  type MergedPageOptions,
  mergedPage,
  pageOf,
  type SourcePage,
} from './sources/merged-pages.js';
// Entries that sources offer besides tools (documents, prompts), searchable like tools.
export {
  MAX_OFFER_HITS,
  type Offer,
  OfferIndex,
  type OfferIndexOptions,
  type OfferMatch,
  type OfferSearchOptions,
} from './sources/offer-index.js';
// Opaque page cursors, each good for its own list
export { decodeCursor, encodeCursor, type ListPosition, MAX_CURSOR_CHARS } from './sources/page-cursor.js';
// What sessions asked of the sources: subscriptions and log levels
export {
  LOG_LEVELS,
  MAX_SUBSCRIPTIONS_PER_SESSION,
  SessionInterests,
  type SessionInterestsOptions,
  type SourceLogLevel,
} from './sources/session-interests.js';
// Which session a source's own request or message is for
export {
  audienceOf,
  type CallingSession,
  CallsInProgress,
  routeToSession,
  type SessionRoute,
} from './sources/session-routes.js';
// Names namespaced per source: `<source>__<name>`, `<source>+<uri>`
export {
  NAME_SEPARATOR,
  type SourceItem,
  SourceNames,
  sourceNameProblem,
  URI_SEPARATOR,
} from './sources/source-names.js';
export {
  type SourceConnector,
  type SourceLogger,
  type SourceRestartOptions,
  type SourceStatus,
  SupervisedSource,
  type SupervisedSourceOptions,
} from './sources/supervised-source.js';
export { assertPositiveMs } from './sources/supervised-source-options.js';
