// The private copy of a schema that the validator runs (see schema-graph.ts): loops cut, `$recursiveRef`
// as `$ref`, `format: "url"` as `uri` with a scheme check, and patterns set up to be matched by RE2.
import { isRecord, setOwn } from '../values.js';
import { type Cut, inPlaceEdges, own } from './schema-graph.js';
import {
  compilePattern,
  isLinear,
  type LinearPattern,
  PATTERN_FORMAT,
  type PatternChecks,
  type PatternMap,
  type PatternUnsupported,
} from './schema-pattern.js';

/** A mutable copy of JSON-like data that keeps shared objects shared (and loops looped). */
function copyShared(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const array: unknown[] = [];
    copies.set(value, array);
    for (let i = 0; i < value.length; i++) array.push(copyShared(value[i], copies));
    return array;
  }
  const object: Record<string, unknown> = {};
  copies.set(value, object);
  for (const key of Object.keys(value)) {
    setOwn(object, key, copyShared((value as Record<string, unknown>)[key], copies));
  }
  return object;
}

/**
 * The scheme check that stands in for the validator's `url` format: its own pattern backtracks
 * exponentially (`http://` and 40 letters then `_` take hours), `uri` does not.
 */
const URL_SCHEME = { pattern: '^(?:[hH][tT][tT][pP][sS]?|[fF][tT][pP]):\\/\\/' };

/** The patterns a subschema holds: its `pattern` and its `patternProperties` keys. */
function patternsOf(node: object): string[] {
  const pattern = own(node, 'pattern');
  const map = own(node, 'patternProperties');
  return [...(typeof pattern === 'string' ? [pattern] : []), ...(isRecord(map) ? Object.keys(map) : [])];
}

/** The first pattern among the rewritten subschemas that RE2 cannot match. */
export function firstUnsupported(rewrites: ReadonlySet<object>): PatternUnsupported | undefined {
  for (const node of rewrites) {
    for (const pattern of patternsOf(node)) {
      const compiled = compilePattern(pattern);
      if (compiled !== undefined && !isLinear(compiled)) return compiled;
    }
  }
  return undefined;
}

/** Collects the patterns of the runnable copy as they are rewritten (see {@link rewritePatterns}). */
export class PatternCollector implements PatternChecks {
  readonly formats = new Map<string, LinearPattern>();
  readonly maps: PatternMap[] = [];
}

/**
 * Sets up a subschema's patterns to be matched in linear time: a `pattern` becomes a format of its
 * own (in an `allOf` when the subschema has a format already), and a `patternProperties` is listed
 * so that the names it matches can be declared for each call. A pattern RE2 cannot match, or
 * `RegExp` rejects, stays.
 */
function rewritePatterns(target: Record<string, unknown>, collector: PatternCollector): void {
  const pattern = typeof target.pattern === 'string' ? compilePattern(target.pattern) : undefined;
  if (isLinear(pattern)) {
    const name = `${PATTERN_FORMAT}${collector.formats.size}`;
    collector.formats.set(name, pattern);
    delete target.pattern;
    if (Object.hasOwn(target, 'format'))
      target.allOf = [...(Array.isArray(target.allOf) ? target.allOf : []), { format: name }];
    else target.format = name;
  }
  const map = target.patternProperties;
  if (!isRecord(map)) return;
  const entries = Object.keys(map).map((source) => ({ source, compiled: compilePattern(source), schema: map[source] }));
  if (entries.some((entry) => isLinear(entry.compiled))) {
    collector.maps.push({ node: target, properties: target.properties, patternProperties: map, entries });
  }
}

/**
 * Rewrites a subschema of the runnable copy: `$recursiveRef` becomes `$ref` (the validator's own
 * handling of it loops without a `$recursiveAnchor`), `format: "url"` becomes `format: "uri"`
 * with an http, https or ftp scheme (the same check, in linear time), and its patterns are set up
 * for RE2 ({@link rewritePatterns}).
 */
function rewrite(target: Record<string, unknown>, collector: PatternCollector): void {
  if (Object.hasOwn(target, '$recursiveRef')) {
    if (!Object.hasOwn(target, '$ref') && typeof target.$recursiveRef === 'string') target.$ref = target.$recursiveRef;
    delete target.$recursiveRef;
  }
  if (target.format === 'url') {
    target.format = 'uri';
    target.allOf = [...(Array.isArray(target.allOf) ? target.allOf : []), { ...URL_SCHEME }];
  }
  rewritePatterns(target, collector);
}

/** The copy the validator can run: loops cut (a `$ref` dropped, or a subschema slot set to `true`), and rewritten. */
export function runnableCopy(
  schema: unknown,
  cuts: readonly Cut[],
  rewrites: ReadonlySet<object>,
  lookup: Record<string, unknown>,
  collector: PatternCollector,
) {
  const copies = new Map<object, unknown>();
  const copy = copyShared(schema, copies);
  for (const { node, target } of cuts) {
    const copied = copies.get(node) as Record<string, unknown>;
    for (const edge of inPlaceEdges(node, lookup)) {
      if (edge.target !== target) continue;
      if (edge.key === '$ref') {
        delete copied.$ref;
        delete copied.$recursiveRef;
      } else if (edge.at === undefined) copied[edge.key] = true;
      else (copied[edge.key] as Record<string | number, unknown>)[edge.at] = true;
    }
  }
  for (const node of rewrites) rewrite(copies.get(node) as Record<string, unknown>, collector);
  return copy;
}
