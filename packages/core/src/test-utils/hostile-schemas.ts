// The hostile schemas of issue #13 (defect 3), shared by the catalog and schema tests.
import type { JsonSchema } from '../types.js';

/** `$defs` l0..l{levels-1}, each level an allOf of two `$ref`s to the level below (2^levels paths). */
export function allOfRefChain(levels: number): JsonSchema {
  const $defs: Record<string, JsonSchema> = {};
  for (let i = 0; i < levels; i++) {
    const below = { $ref: `#/$defs/l${i + 1}` };
    $defs[`l${i}`] = i === levels - 1 ? { type: 'string' } : { allOf: [below, { ...below }] };
  }
  return { type: 'object', properties: { x: { $ref: '#/$defs/l0' } }, $defs };
}

/** One sub-object used twice at every level, under `keyword` (a DAG as a JS object). */
export function sharedAtEveryLevel(levels: number, keyword: 'allOf' | 'properties'): JsonSchema {
  let node: JsonSchema = { type: 'string' };
  for (let i = 0; i < levels; i++) {
    node = keyword === 'allOf' ? { allOf: [node, node] } : { type: 'object', properties: { a: node, b: node } };
  }
  return { type: 'object', properties: { x: node } };
}

/** An object schema nested `levels` deep under `properties.x`, then `properties.a` at each level. */
export function nestedSchema(levels: number): JsonSchema {
  let node: JsonSchema = { type: 'string' };
  for (let i = 0; i < levels; i++) node = { type: 'object', properties: { a: node } };
  return { type: 'object', properties: { x: node } };
}

/** A recursive but legitimate schema: a tree of named nodes. */
export const treeSchema: JsonSchema = {
  type: 'object',
  properties: { root: { $ref: '#/$defs/node' } },
  required: ['root'],
  $defs: {
    node: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
      required: ['name'],
    },
  },
};

/** Tree arguments `depth` levels deep (two children a level, one of them a leaf). */
export function treeArguments(depth: number, leafName: unknown = 'leaf'): { root: unknown } {
  let node: Record<string, unknown> = { name: leafName };
  for (let i = 0; i < depth; i++) node = { name: `n${i}`, children: [node, { name: 'x' }] };
  return { root: node };
}

/** Nested arrays, each level checked against two `$ref`s to the level's schema: 2^depth paths in the data. */
export const fanOutOnData: JsonSchema = {
  type: 'object',
  properties: { x: { $ref: '#/$defs/node' } },
  $defs: {
    node: {
      type: 'array',
      items: { anyOf: [{ $ref: '#/$defs/node' }, { $ref: '#/$defs/node' }, { type: 'integer' }] },
    },
  },
};

/** `value` wrapped in `depth` arrays. */
export function nestedArrays(depth: number, value: unknown): unknown {
  let nested = value;
  for (let i = 0; i < depth; i++) nested = [nested];
  return nested;
}
