// How a JSON Schema's subschemas apply to a value, so that validating against it has a bounded cost.
//
// The validator (@cfworker/json-schema) walks a schema as a tree: a subschema reached by two paths
// (two `$ref`s to one definition, or one object used twice) is evaluated once per path. A schema
// whose `$defs` chain `allOf` two `$ref`s to the level below evaluates 2^levels subschemas for one
// value, and `{ "$ref": "#" }` evaluates itself forever. This module reads a schema as the graph it
// is (shared objects once, `$ref`s resolved) and:
// - cuts the loops of subschemas that apply to the same value (a `$ref` back to a schema already
//   applied to it adds nothing: `{ "$ref": "#" }` accepts anything, like `{}`); recursion that
//   descends into the value (a tree node whose `children` items refer back to the node) is kept;
// - counts, without evaluating anything, the steps the validator would take: for any single value
//   (checked when a tool enters the catalog) and for given arguments (checked before every
//   validation, which is refused when it is over the budget);
// - gives the validator a private copy where it must: loops cut, `$recursiveRef` as `$ref`, and
//   `format: "url"` as `uri` with an http(s)/ftp scheme (the library's url pattern backtracks
//   exponentially), and every `pattern` and `patternProperties` key set up to be matched by RE2 in
//   linear time (see schema-pattern.ts). `$ref`s resolve within the schema; other documents are not
//   fetched.
// The copy is made in runnable-copy.ts, and the count for given arguments in validation-cost.ts.
//
// Why count first instead of memoising the validator's results per (subschema, value): a result
// carries more than valid/invalid (the properties it evaluated, for `unevaluatedProperties`; where
// each error is), so sharing one between paths would change what the library reports. Counting
// with a memo takes at most about the budget's steps and leaves the library's results as they are.

import { isRecord } from '../values.js';
import { firstUnsupported, PatternCollector, runnableCopy } from './runnable-copy.js';
import { firstUncompiled, type PatternChecks, type PatternUnsupported } from './schema-pattern.js';

/**
 * How many steps one validation may take: one per subschema applied to a value (an evaluation in the
 * validator), per required name checked, per pair of items compared for `uniqueItems`, per enum
 * member that is an object or array, and per hundred other enum members compared. A tool call whose
 * arguments would take more is refused; a schema that would take more for any single value is
 * rejected when its tool enters the catalog. Ordinary tool calls take tens to hundreds; at the
 * limit, validating takes well under a second.
 */
export const VALIDATION_BUDGET = 50_000;

/**
 * How deep subschemas applied to one value may nest (`allOf` in `allOf`, a `$ref` to a `$ref`...):
 * the validator recurses once per level, and a long chain would exhaust the stack.
 */
export const MAX_IN_PLACE_DEPTH = 128;

/** What the validator needs to run a schema, and what it costs. */
export interface SchemaPlan {
  /**
   * The schema to validate with: the one given, or a private copy when loops had to be cut or
   * subschemas rewritten (`$recursiveRef`, `format: "url"`; the given schema is never changed).
   */
  readonly schema: unknown;
  /** Each `$ref` string of the schema, mapped to the subschema it names (the validator's lookup). */
  readonly lookup: Record<string, unknown>;
  /** `$ref`s that name nothing in the schema (remote schemas are not fetched). */
  readonly unresolved: readonly string[];
  /** The most steps the schema takes on any one value it meets, capped at budget + 1. */
  readonly maxValueCost: number;
  /** The deepest nesting of subschemas applied to one value. */
  readonly maxInPlaceDepth: number;
  /**
   * What is known of each subschema reachable from the root (or a definition) that applies others
   * to the same value, refers, or has an enum. Any other subschema takes one step on any value.
   */
  readonly nodes: ReadonlyMap<object, SchemaNode>;
  /** How the copy's patterns are matched in linear time, for `withPatterns`. */
  readonly patterns: PatternChecks;
  /** The first pattern that cannot be matched in linear time (a lookaround, a backreference...). */
  readonly unsupportedPattern: PatternUnsupported | undefined;
}

/** What the analysis knows of one subschema. */
export interface SchemaNode {
  /** The subschemas applied to the same value as this one: its keywords', then its `$ref` target. */
  readonly inPlace: readonly unknown[];
  /** The steps it takes on any value by itself: one, and comparing the value with its enum. */
  readonly steps: number;
  /** The steps it takes on a value with no members (a string, number...), in-place subschemas included. */
  readonly cost: number;
  /** How deep its in-place subschemas nest, itself included. */
  readonly depth: number;
}

const ONE_IN_PLACE = ['not', 'if', 'then', 'else'] as const;
const MANY_IN_PLACE = ['allOf', 'anyOf', 'oneOf'] as const;
const MAP_IN_PLACE = ['dependentSchemas', 'dependencies'] as const;

/** How a keyword holds subschemas: applied to the value itself, to its members, or not at all (definitions). */
type Holding = 'in-place' | 'in-place list' | 'in-place map' | 'member' | 'member map' | 'items' | 'definitions';
const HOLDINGS = new Map<string, Holding>([
  ...ONE_IN_PLACE.map((key) => [key, 'in-place'] as const),
  ...MANY_IN_PLACE.map((key) => [key, 'in-place list'] as const),
  ...MAP_IN_PLACE.map((key) => [key, 'in-place map'] as const),
  ...(
    [
      'additionalProperties',
      'unevaluatedProperties',
      'propertyNames',
      'additionalItems',
      'contains',
      'unevaluatedItems',
    ] as const
  ).map((key) => [key, 'member'] as const),
  ['properties', 'member map'],
  ['patternProperties', 'member map'],
  ['prefixItems', 'items'],
  ['items', 'items'],
  ['$defs', 'definitions'],
  ['definitions', 'definitions'],
]);

/**
 * How many enum members that are strings, numbers, booleans or null make one step: comparing one
 * is a single `===`, about a hundredth of an evaluation. An object or array member is a step of its
 * own (it is compared member by member).
 */
const PLAIN_MEMBERS_PER_STEP = 100;

function enumSteps(members: readonly unknown[]): number {
  let structured = 0;
  for (const member of members) if (typeof member === 'object' && member !== null) structured++;
  return structured + Math.ceil((members.length - structured) / PLAIN_MEMBERS_PER_STEP);
}

function isSchema(value: unknown): value is object | boolean {
  return isRecord(value) || typeof value === 'boolean';
}

export function own(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** The reference a schema follows: `$ref`, or `$recursiveRef` (resolved like a `$ref`). */
function referenceOf(node: object): string | undefined {
  const ref = own(node, '$ref');
  if (typeof ref === 'string') return ref;
  const recursive = own(node, '$recursiveRef');
  return typeof recursive === 'string' ? recursive : undefined;
}

/** A subschema that applies to the same value as its parent, and where the parent holds it. */
interface Edge {
  target: unknown;
  /** The keyword holding it; `$ref` for a reference. */
  key: string;
  /** The index or name within the keyword's array or map. */
  at?: string | number;
}

/** Where `node` holds each of its in-place subschemas (read only to cut a loop). */
export function inPlaceEdges(node: object, lookup: Record<string, unknown>): Edge[] {
  const edges: Edge[] = [];
  const ref = referenceOf(node);
  if (ref !== undefined && isSchema(lookup[ref])) edges.push({ target: lookup[ref], key: '$ref' });
  for (const key of ONE_IN_PLACE) {
    const value = own(node, key);
    if (isSchema(value)) edges.push({ target: value, key });
  }
  for (const key of MANY_IN_PLACE) {
    const list = own(node, key);
    if (!Array.isArray(list)) continue;
    for (let at = 0; at < list.length; at++) if (isSchema(list[at])) edges.push({ target: list[at], key, at });
  }
  for (const key of MAP_IN_PLACE) {
    const map = own(node, key);
    if (!isRecord(map)) continue;
    for (const at of Object.keys(map)) if (isSchema(map[at])) edges.push({ target: map[at], key, at });
  }
  return edges;
}

/** Where `$ref`s can point: the root, `$id`s and `$anchor`s. */
interface Targets {
  root: unknown;
  /** Made when a subschema names itself (few do). */
  ids?: Map<string, object>;
  anchors?: Map<string, object>;
}

function resolvePointer(from: unknown, pointer: string): unknown {
  if (pointer === '') return from;
  if (!pointer.startsWith('/')) return undefined;
  let current = from;
  for (const encoded of pointer.slice(1).split('/')) {
    let key = encoded;
    if (/[%~]/.test(encoded)) {
      try {
        key = decodeURIComponent(encoded).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return undefined;
      }
    }
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * The subschema a `$ref` names: `#/json/pointer` or `#anchor` within the schema, or within an
 * embedded schema named by its `$id`. References are resolved against the whole schema (an embedded
 * `$id` does not change what `#/...` means inside it).
 */
function resolveReference(ref: string, targets: Targets): unknown {
  const hash = ref.indexOf('#');
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  const resource = base === '' ? targets.root : targets.ids?.get(base);
  if (resource === undefined) return undefined;
  const target =
    fragment === '' || fragment.startsWith('/')
      ? resolvePointer(resource, fragment)
      : targets.anchors?.get(decodeURIComponentSafe(fragment));
  return isSchema(target) ? target : undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A subschema under analysis: a {@link SchemaNode} being filled in. */
interface Node {
  inPlace: unknown[];
  steps: number;
  cost: number;
  depth: number;
  /** The reference it follows, until it is resolved. */
  ref: string | undefined;
  /** Where the depth-first walk is: not yet met, on its path, finished. */
  state: 'new' | 'open' | 'done';
}

/** Adds `value` to a subschema's in-place list (made on the first one) when it is a schema. */
function addInPlace(list: unknown[] | undefined, value: unknown, enqueue: (schema: unknown) => void) {
  if (!isSchema(value)) return list;
  enqueue(value);
  if (list === undefined) return [value];
  list.push(value);
  return list;
}

/** Registers the names a subschema gives itself (`$id`, `id`, `$anchor`) as `$ref` targets. */
function nameTargets(node: Record<string, unknown>, targets: Targets): void {
  const id = own(node, '$id') ?? own(node, 'id');
  if (typeof id === 'string') {
    const base = id.split('#')[0]!;
    targets.ids ??= new Map();
    targets.anchors ??= new Map();
    if (id.startsWith('#')) targets.anchors.set(id.slice(1), node);
    else if (!targets.ids.has(base)) targets.ids.set(base, node);
  }
  const anchor = own(node, '$anchor');
  if (typeof anchor !== 'string') return;
  targets.anchors ??= new Map();
  if (!targets.anchors.has(anchor)) targets.anchors.set(anchor, node);
}

/**
 * Reads one subschema's keywords once: its in-place subschemas, its reference, its enum, the names
 * it gives itself, and every subschema below it (passed to `enqueue`); one that must be rewritten
 * to be run goes to `rewrites` (see {@link rewrite}). `undefined` for a plain subschema (none of
 * the first three): most are, and they cost one step whatever the value.
 */
function readNode(
  node: Record<string, unknown>,
  targets: Targets,
  enqueue: (schema: unknown) => void,
  rewrites: Set<object>,
): Node | undefined {
  let inPlace: unknown[] | undefined;
  let steps = 1;
  let refers = false;
  const keys = Object.keys(node);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const value = node[key];
    switch (HOLDINGS.get(key)) {
      case 'in-place':
        inPlace = addInPlace(inPlace, value, enqueue);
        break;
      case 'in-place list':
        if (Array.isArray(value))
          for (let i = 0; i < value.length; i++) inPlace = addInPlace(inPlace, value[i], enqueue);
        break;
      case 'in-place map':
        if (isRecord(value)) for (const name of Object.keys(value)) inPlace = addInPlace(inPlace, value[name], enqueue);
        break;
      case 'member':
        enqueue(value);
        break;
      case 'items':
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) enqueue(value[i]);
        else enqueue(value);
        break;
      case 'member map':
        if (key === 'patternProperties' && isRecord(value)) rewrites.add(node);
        if (isRecord(value)) for (const name of Object.keys(value)) enqueue(value[name]);
        break;
      case 'definitions':
        if (isRecord(value)) for (const name of Object.keys(value)) enqueue(value[name]);
        break;
      default:
        if (key === 'enum' && Array.isArray(value)) steps += enumSteps(value);
        else if (key === '$ref') refers = true;
        else if (
          key === '$recursiveRef' ||
          (key === 'format' && value === 'url') ||
          (key === 'pattern' && typeof value === 'string')
        ) {
          refers ||= key === '$recursiveRef';
          rewrites.add(node);
        } else if (key === '$id' || key === 'id' || key === '$anchor') nameTargets(node, targets);
    }
  }
  const ref = refers ? referenceOf(node) : undefined;
  if (inPlace === undefined && steps === 1 && ref === undefined) return undefined;
  return { inPlace: inPlace ?? [], steps, cost: 0, depth: 0, ref, state: 'new' };
}

/**
 * Every subschema reachable from the root (and every definition) that is not plain (see
 * {@link readNode}), `$ref`s resolved.
 */
function collect(root: unknown) {
  const seen = new Set<object>();
  const rewrites = new Set<object>();
  const nodes = new Map<object, Node>();
  const targets: Targets = { root };
  const lookup: Record<string, unknown> = Object.create(null);
  const referring: Node[] = [];
  const pending: unknown[] = [root];
  const enqueue = (schema: unknown) => {
    if (isRecord(schema) && !seen.has(schema)) pending.push(schema);
  };
  while (pending.length > 0) {
    const schema = pending.pop();
    if (!isRecord(schema) || seen.has(schema)) continue;
    seen.add(schema);
    const node = readNode(schema, targets, enqueue, rewrites);
    if (node !== undefined) nodes.set(schema, node);
    if (node?.ref !== undefined) referring.push(node);
    // A `$ref` is resolved once every `$id` and `$anchor` is known; its target may hold more.
    if (pending.length > 0) continue;
    for (const from of referring) {
      if (from.ref === undefined) continue;
      const target = from.ref in lookup ? lookup[from.ref] : resolveReference(from.ref, targets);
      if (target === undefined) continue;
      lookup[from.ref] = target;
      from.inPlace.push(target);
      from.ref = undefined;
      enqueue(target);
    }
  }
  const unresolved = new Set<string>();
  for (const from of referring) if (from.ref !== undefined) unresolved.add(from.ref);
  return { nodes, lookup, unresolved: [...unresolved], rewrites };
}

/** An in-place edge that closes a loop: from `node` to `target`, a subschema still on the walk's path. */
export interface Cut {
  node: object;
  target: object;
}

/**
 * A depth-first walk of the in-place graph from every node: an edge back to a node still on the
 * walk's path closes a loop and is cut; every other node is finished before the nodes that apply
 * it, so its cost (its own steps and its in-place subschemas' costs) and depth are known when they
 * need them. Costs are capped at `cap`.
 */
function walkInPlace(nodes: Map<object, Node>, cap: number): Cut[] {
  const cuts: Cut[] = [];
  for (const [start, first] of nodes) {
    if (first.state !== 'new') continue;
    const stack: { schema: object; node: Node; next: number }[] = [];
    const open = (schema: object, node: Node) => {
      node.state = 'open';
      stack.push({ schema, node, next: 0 });
    };
    open(start, first);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const { inPlace } = frame.node;
      if (frame.next < inPlace.length) {
        const target = inPlace[frame.next++];
        const next = isRecord(target) ? nodes.get(target) : undefined;
        if (next === undefined) continue;
        if (next.state === 'open') cuts.push({ node: frame.schema, target: target as object });
        else if (next.state === 'new') open(target as object, next);
        continue;
      }
      stack.pop();
      let cost = frame.node.steps;
      let deepest = inPlace.length > 0 ? 1 : 0;
      for (const target of inPlace) {
        const below = isRecord(target) ? nodes.get(target) : undefined;
        if (below === undefined)
          cost += 1; // a boolean or a plain subschema: one step, one level
        else if (below.state === 'done') {
          cost = Math.min(cap, cost + below.cost);
          deepest = Math.max(deepest, below.depth);
        }
      }
      frame.node.cost = cost;
      frame.node.depth = deepest + 1;
      frame.node.state = 'done';
    }
  }
  return cuts;
}

const NO_PATTERNS: PatternChecks = { formats: new Map(), maps: [] };

function analyse(schema: unknown, patterns = NO_PATTERNS): { plan: SchemaPlan; cuts: Cut[]; rewrites: Set<object> } {
  const { nodes, lookup, unresolved, rewrites } = collect(schema);
  const cuts = walkInPlace(nodes, VALIDATION_BUDGET + 1);
  let maxValueCost = 1;
  let maxInPlaceDepth = isRecord(schema) ? 1 : 0;
  for (const node of nodes.values()) {
    maxValueCost = Math.max(maxValueCost, node.cost);
    maxInPlaceDepth = Math.max(maxInPlaceDepth, node.depth);
  }
  const unsupportedPattern = firstUnsupported(rewrites);
  return {
    plan: { schema, lookup, unresolved, maxValueCost, maxInPlaceDepth, nodes, patterns, unsupportedPattern },
    cuts,
    rewrites,
  };
}

const plans = new WeakMap<object, SchemaPlan>();

/**
 * The plan for validating against `schema` (cached per schema object). Never changes `schema`.
 * Throws only a `RangeError` for data nested deeper than the stack allows, which a catalog schema
 * (128 levels at most) never is.
 */
export function schemaPlan(schema: unknown): SchemaPlan {
  const cached = cachedPlan(schema);
  if (cached) return cached;
  const first = analyse(schema);
  const runnable = first.cuts.length === 0 && first.rewrites.size === 0;
  const collector = new PatternCollector();
  const built = runnable
    ? first.plan
    : analyse(runnableCopy(schema, first.cuts, first.rewrites, first.plan.lookup, collector), collector).plan;
  const unsupportedPattern = built.unsupportedPattern ?? firstUncompiled(collector);
  const plan = unsupportedPattern === built.unsupportedPattern ? built : { ...built, unsupportedPattern };
  if (typeof schema === 'object' && schema !== null) plans.set(schema, plan);
  return plan;
}

/** The plan made for a schema object, if any. */
function cachedPlan(schema: unknown): SchemaPlan | undefined {
  return typeof schema === 'object' && schema !== null ? plans.get(schema) : undefined;
}

/**
 * Why a schema cannot be validated within the budget whatever the arguments, or `undefined` when
 * it can: the most subschemas it applies to one value, how deep they nest, or a pattern that
 * cannot be matched in linear time.
 */
export function schemaCostProblem(plan: SchemaPlan): string | undefined {
  const unsupported = plan.unsupportedPattern;
  if (unsupported !== undefined) {
    return `has the pattern ${JSON.stringify(unsupported.source)}, which uses ${unsupported.reason}: patterns are matched in linear time (RE2) so that no string can stall the process, and this one cannot be. Write the pattern without it, or leave the check to the tool.`;
  }
  if (plan.maxValueCost > VALIDATION_BUDGET) {
    return `is too costly to validate: checking a single value would take more than ${VALIDATION_BUDGET.toLocaleString('en-US')} steps (the limit), because $refs or shared subschemas fan out (e.g. an allOf of two $refs to the level below, at every level) or an enum is that long. Refer to each definition once per level, or flatten the schema.`;
  }
  if (plan.maxInPlaceDepth > MAX_IN_PLACE_DEPTH) {
    return `is too deeply layered to validate: it applies subschemas to a single value through ${plan.maxInPlaceDepth} levels of allOf/anyOf/oneOf/not/if/$ref (the limit is ${MAX_IN_PLACE_DEPTH}). Flatten the chain of definitions.`;
  }
  return undefined;
}

/**
 * {@link schemaCostProblem} for a schema, measured without keeping its plan: a catalog measures
 * every schema that could be costly, and most tools are never called.
 */
export function costProblemOf(schema: unknown): string | undefined {
  return schemaCostProblem(cachedPlan(schema) ?? analyse(schema).plan);
}
