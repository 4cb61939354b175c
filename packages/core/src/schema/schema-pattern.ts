// JSON Schema `pattern`s checked in linear time.
//
// A schema's patterns are ECMA-262 regular expressions (unanchored, `u` mode), and the validator runs
// them with `RegExp`, which backtracks: `^(a+)+$` against 30 letters and a `!` takes seconds, and no
// time limit can be put on a synchronous `RegExp.test`. Tool schemas come from untrusted places (an
// MCP server, a catalog file) and the strings come from the model, so every pattern the validator
// would run is translated to RE2 syntax (pattern-translate.ts) and matched by re2js (RE2's
// automata: linear in the text, whatever the pattern). The translation keeps the ECMA-262 meaning: `.` stops at the four
// line terminators, `\s` is ECMA-262's white space, and `\p{…}` is the very set `RegExp` matches
// (read from `RegExp` itself, one character at a time). RE2 has no backreferences and no
// lookaround: a pattern that needs them is {@link PatternUnsupported} (the catalog rejects its
// tool); a pattern `RegExp` itself rejects is left to the validator, which reports it as before.
import { format as formats } from '@cfworker/json-schema';
import type { RE2JS, RE2Set } from 're2js';
import { isRecord, setOwn } from '../values.js';
import { translate, Unsupported } from './pattern-translate.js';

type Re2 = typeof import('re2js');

let re2: Re2 | undefined;
let re2Loading: Promise<unknown> | undefined;

/**
 * Loads re2js, on the first validation against a JSON Schema rather than at import (loading it is
 * about 7 ms, a fifth of importing `@toolscout/core`, and a process that never validates a call
 * need not pay it). `undefined` once it is loaded: validating then stays synchronous.
 */
export function loadPatternEngine(): Promise<unknown> | undefined {
  if (re2 !== undefined) return undefined;
  re2Loading ??= import('re2js').then(
    (module) => {
      re2 = module;
    },
    (error: unknown) => {
      re2Loading = undefined;
      throw error;
    },
  );
  return re2Loading;
}

/** re2js, once {@link loadPatternEngine} has loaded it (a plan's patterns are matched only after). */
function engine(): Re2 {
  if (re2 === undefined) throw new Error('re2js is not loaded yet: await loadPatternEngine() first');
  return re2;
}

/**
 * A pattern translated for linear-time matching. RE2 compiles it on first use (about 50 µs, so a
 * catalog of 10,000 tools with patterns of their own is not slowed down by tools never called).
 */
export class LinearPattern {
  #program: RE2JS | PatternUnsupported | undefined;

  constructor(
    /** The pattern as the schema gives it. */
    readonly source: string,
    /** The same pattern in RE2 syntax. */
    readonly re2: string,
  ) {}

  /** RE2's program for it, or why RE2 cannot compile it (a repeat of a repeat too large...). */
  program(): RE2JS | PatternUnsupported {
    if (this.#program === undefined) {
      try {
        this.#program = engine().RE2JS.compile(this.re2);
      } catch (error) {
        const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
        this.#program = { source: this.source, reason: `what RE2 cannot compile (${why})` };
      }
    }
    return this.#program;
  }

  /**
   * Whether the pattern matches somewhere in `text` (`RegExp.prototype.test` with the `u` flag).
   * Asked only of a pattern whose {@link program} compiled (a plan with one that does not is refused).
   */
  test(text: string): boolean {
    const program = this.program();
    if (program instanceof engine().RE2JS) return program.test(text);
    throw new Error(`the pattern ${JSON.stringify(this.source)} cannot be matched: it uses ${program.reason}`);
  }
}

/** A pattern `RegExp` accepts but RE2 cannot match, and why. */
export interface PatternUnsupported {
  readonly source: string;
  /** What it uses, e.g. `a lookahead`, `a backreference`. */
  readonly reason: string;
}

/** How a schema's pattern is checked: in linear time, not at all (unsupported), or by `RegExp` (it is invalid). */
export type CompiledPattern = LinearPattern | PatternUnsupported | undefined;

export function isLinear(pattern: CompiledPattern): pattern is LinearPattern {
  return pattern instanceof LinearPattern;
}

function compile(source: string): CompiledPattern {
  try {
    new RegExp(source, 'u');
  } catch {
    return undefined; // the validator reports it, as it always has
  }
  let translated: string;
  try {
    translated = translate(source);
  } catch (error) {
    if (error instanceof Unsupported) return { source, reason: error.message };
    throw error;
  }
  return new LinearPattern(source, translated);
}

/** How many compiled patterns are kept: tools share few distinct patterns (ids, dates, slugs). */
const CACHE_SIZE = 1_000;
const cache = new Map<string, CompiledPattern>();

/**
 * A schema pattern translated for linear-time matching (cached by its text): a {@link LinearPattern},
 * a {@link PatternUnsupported} for what the translation finds RE2 cannot do, or `undefined` for a
 * pattern `RegExp` rejects.
 */
export function compilePattern(source: string): CompiledPattern {
  if (cache.has(source)) return cache.get(source);
  const compiled = compile(source);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(source, compiled);
  return compiled;
}

/**
 * The name under which a `pattern` of the validator's copy is checked as a `format`: the validator
 * runs a `format` through its (mutable) table of functions, so a pattern put there is matched by
 * re2js. The names exist in the table only while {@link withPatterns} runs (synchronously), and the
 * random part keeps a schema's own format names from meeting them.
 */
export const PATTERN_FORMAT = `toolscout-pattern-${Math.random().toString(36).slice(2, 10)}-`;

/**
 * The first of a plan's patterns RE2 cannot compile: the translation lets a few through (a repeat
 * of a repeat past RE2's limit, `(a{100}){100}`), found when the plan is made, at the first call.
 */
export function firstUncompiled(checks: PatternChecks): PatternUnsupported | undefined {
  for (const pattern of [...checks.formats.values(), ...mapPatterns(checks)]) {
    const program = pattern.program();
    if (!(program instanceof engine().RE2JS)) return program;
  }
  return undefined;
}

/** The distinct patterns of a plan's pattern maps that are matched in linear time. */
function mapPatterns(checks: PatternChecks): LinearPattern[] {
  return [...new Set(checks.maps.flatMap((map) => map.entries.map((entry) => entry.compiled).filter(isLinear)))];
}

/** Whether a validator error is a pattern checked as a {@link PATTERN_FORMAT}. */
export function isPatternFormatError(error: string): boolean {
  return error.includes(PATTERN_FORMAT);
}

/**
 * A subschema of the validator's copy with `patternProperties`: while {@link withPatterns} runs,
 * the names of the arguments each pattern matches (found by RE2) are declared in its `properties`
 * instead, which the validator treats alike (a name's value is checked, and the name counts as
 * evaluated for `additionalProperties` and `unevaluatedProperties`), so its own `RegExp`s never run.
 */
export interface PatternMap {
  readonly node: Record<string, unknown>;
  /** The subschema's own `properties` and `patternProperties`, put back after each call. */
  readonly properties: unknown;
  readonly patternProperties: Record<string, unknown>;
  readonly entries: readonly {
    readonly source: string;
    readonly compiled: CompiledPattern;
    readonly schema: unknown;
  }[];
}

/** What a plan's copy needs so that its patterns run in linear time (see {@link withPatterns}). */
export interface PatternChecks {
  /** The `format` names standing in for `pattern`s. */
  readonly formats: ReadonlyMap<string, LinearPattern>;
  readonly maps: readonly PatternMap[];
}

/**
 * How many names declared for a call's pattern maps, times the objects of its arguments, count as one
 * step of the validation budget: the validator reads every declared name for every object a
 * subschema applies to (a plain lookup, like an enum member).
 */
export const DECLARED_NAMES_PER_STEP = 10;

/** Thrown by {@link withPatterns} when the declared names would take more than the budget allows. */
export class PatternNamesOverBudget extends Error {}

/** Every property name of every object in `args`, and how many objects there are. */
function propertyNames(args: unknown): { names: string[]; objects: number } {
  const names = new Set<string>();
  const seen = new Set<object>();
  const pending = [args];
  let objects = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (!Array.isArray(value)) objects++;
    for (const key in value) {
      if (!Array.isArray(value)) names.add(key);
      pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return { names: [...names], objects };
}

/** How many property names a plan remembers the matching patterns of (calls reuse a few names). */
const NAMES_MEMO_SIZE = 1_024;

/** The distinct patterns of a plan's pattern maps as one RE2 set, and the names it matched. */
interface PatternSet {
  patterns: LinearPattern[];
  set: RE2Set;
  memo: Map<string, number[]>;
}
const patternSets = new WeakMap<PatternChecks, PatternSet>();

/** The plan's {@link PatternSet}, made on its first call. */
function patternSet(checks: PatternChecks): PatternSet {
  const known = patternSets.get(checks);
  if (known) return known;
  const patterns = mapPatterns(checks);
  const { RE2Set } = engine();
  const set = new RE2Set(RE2Set.UNANCHORED);
  for (const pattern of patterns) set.add(pattern.re2);
  set.compile();
  const made = { patterns, set, memo: new Map<string, number[]>() };
  patternSets.set(checks, made);
  return made;
}

/** For each pattern of the plan's maps, the names in `args` it matches (one RE2 pass per name). */
function matchingNames(checks: PatternChecks, names: readonly string[]): Map<LinearPattern, string[]> {
  const { patterns, set, memo } = patternSet(checks);
  const matched = new Map(patterns.map((pattern) => [pattern, [] as string[]]));
  for (const name of names) {
    let ids = memo.get(name);
    if (ids === undefined) {
      ids = set.match(name);
      if (memo.size >= NAMES_MEMO_SIZE) memo.clear();
      memo.set(name, ids);
    }
    for (const id of ids) matched.get(patterns[id]!)!.push(name);
  }
  return matched;
}

/**
 * A map's `properties` for one call: its own, and each name its patterns match with the pattern's
 * subschema (both, in an `allOf`, for a name that several declare). Patterns `RegExp` rejects stay
 * in `patternProperties`, for the validator to report.
 */
function declareMatches(map: PatternMap, matched: Map<LinearPattern, string[]>): number {
  const properties: Record<string, unknown> = {};
  const own = isRecord(map.properties) ? map.properties : {};
  for (const key of Object.keys(own)) setOwn(properties, key, own[key]);
  const left: Record<string, unknown> = {};
  let declared = 0;
  for (const { source, compiled, schema } of map.entries) {
    if (!isLinear(compiled)) {
      setOwn(left, source, schema);
      continue;
    }
    for (const name of matched.get(compiled)!) {
      setOwn(properties, name, Object.hasOwn(properties, name) ? { allOf: [properties[name], schema] } : schema);
      declared++;
    }
  }
  map.node.properties = properties;
  if (Object.keys(left).length > 0) map.node.patternProperties = left;
  else delete map.node.patternProperties;
  return declared;
}

function restore(map: PatternMap): void {
  if (map.properties === undefined) delete map.node.properties;
  else map.node.properties = map.properties;
  map.node.patternProperties = map.patternProperties;
}

/**
 * Runs `validate` with the plan's patterns checked in linear time: each `pattern` through its
 * format, and each `patternProperties` as the names of `args` its patterns match (see
 * {@link PatternMap}). Throws {@link PatternNamesOverBudget} before validating when the names
 * declared, times the objects in `args`, pass `budget` steps.
 */
export function withPatterns<T>(checks: PatternChecks, args: unknown, budget: number, validate: () => T): T {
  if (checks.formats.size === 0 && checks.maps.length === 0) return validate();
  try {
    if (checks.maps.length > 0) {
      const { names, objects } = propertyNames(args);
      const matched = matchingNames(checks, names);
      let declared = 0;
      for (const map of checks.maps) declared += declareMatches(map, matched);
      if ((declared * objects) / DECLARED_NAMES_PER_STEP > budget) throw new PatternNamesOverBudget();
    }
    for (const [name, pattern] of checks.formats) formats[name] = (text) => pattern.test(text);
    return validate();
  } finally {
    for (const name of checks.formats.keys()) delete formats[name];
    for (const map of checks.maps) restore(map);
  }
}
