// What validating given arguments costs, counted before the validator runs (see schema-graph.ts).
import { isRecord } from '../values.js';
import { own, type SchemaPlan, VALIDATION_BUDGET } from './schema-graph.js';

/** Thrown inside {@link validationCost} once the count passes the budget. */
const OVER_BUDGET = Symbol('over budget');

/**
 * How many steps validating `value` against the plan's schema takes (an upper bound: every branch
 * counted, every key tried against every pattern), or `budget + 1` as soon as it is more than
 * `budget`. Counting costs at most about `budget` steps: a subschema and a value met again by
 * another path are counted from a memo.
 */
export function validationCost(plan: SchemaPlan, value: unknown, budget = VALIDATION_BUDGET): number {
  const memo = new Map<object, Map<object, number>>();
  let steps = 0;
  const costOf = (schema: unknown, value: unknown): number => {
    if (!isRecord(schema)) return 1;
    const node = plan.nodes.get(schema);
    if (typeof value !== 'object' || value === null) return node?.cost ?? 1;
    let known = memo.get(value);
    const cached = known?.get(schema);
    if (cached !== undefined) return cached;
    if (++steps > budget) throw OVER_BUDGET;
    let total = 0;
    const add = (cost: number) => {
      total += cost;
      if (total > budget) throw OVER_BUDGET;
    };
    add(node?.steps ?? 1);
    const inPlace = node?.inPlace ?? [];
    for (let i = 0; i < inPlace.length; i++) add(costOf(inPlace[i], value));
    if (Array.isArray(value)) addItemCosts(schema, value, costOf, add);
    else addMemberCosts(schema, value as Record<string, unknown>, costOf, add);
    if (!known) {
      known = new Map();
      memo.set(value, known);
    }
    known.set(schema, total);
    return total;
  };
  try {
    return costOf(plan.schema, value);
  } catch (error) {
    if (error === OVER_BUDGET) return budget + 1;
    throw error;
  }
}

type CostOf = (schema: unknown, value: unknown) => number;

function listLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function addMemberCosts(schema: object, value: Record<string, unknown>, costOf: CostOf, add: (cost: number) => void) {
  const keys = Object.keys(value);
  add(listLength(own(schema, 'required')));
  const dependentRequired = own(schema, 'dependentRequired');
  if (isRecord(dependentRequired)) for (const key of keys) add(listLength(dependentRequired[key]));
  const properties = own(schema, 'properties');
  if (isRecord(properties)) {
    for (const key of Object.keys(properties)) if (Object.hasOwn(value, key)) add(costOf(properties[key], value[key]));
  }
  const patterns = own(schema, 'patternProperties');
  if (isRecord(patterns)) {
    for (const pattern of Object.keys(patterns)) for (const key of keys) add(costOf(patterns[pattern], value[key]));
  }
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
    const member = own(schema, keyword);
    if (member !== undefined) for (const key of keys) add(costOf(member, value[key]));
  }
  const names = own(schema, 'propertyNames');
  if (names !== undefined) for (const key of keys) add(costOf(names, key));
}

function addItemCosts(schema: object, value: readonly unknown[], costOf: CostOf, add: (cost: number) => void) {
  if (own(schema, 'uniqueItems') === true) add((value.length * (value.length - 1)) / 2);
  for (const keyword of ['prefixItems', 'items'] as const) {
    const items = own(schema, keyword);
    if (Array.isArray(items)) {
      for (let i = 0; i < Math.min(items.length, value.length); i++) add(costOf(items[i], value[i]));
    } else if (items !== undefined) {
      for (const item of value) add(costOf(items, item));
    }
  }
  for (const keyword of ['additionalItems', 'contains', 'unevaluatedItems'] as const) {
    const items = own(schema, keyword);
    if (items !== undefined) for (const item of value) add(costOf(items, item));
  }
}
