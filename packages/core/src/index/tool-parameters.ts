// The parameter text of a tool: the names, titles and descriptions of its input schema's
// properties, walked in schema order without listing them (the index and the fingerprints feed
// them on as they are found).
import { isRecord } from '../values.js';

/** How deep nested object parameters are followed (`address.city` is depth 2). */
const MAX_PARAMETER_DEPTH = 3;
/** At most this many parameter names are indexed per tool (huge schemas would drown the rest). */
const MAX_PARAMETERS = 64;

/** Where {@link collectParameterStrings} puts the strings it finds, in schema order. */
export interface ParameterSink {
  /** Parameter names met so far (at most {@link MAX_PARAMETERS} are taken). */
  count: number;
  add(text: string): void;
}

/**
 * Gives `found` the parameter names, titles and descriptions of a JSON Schema's `properties`,
 * following nested object properties (and array items' properties) up to
 * {@link MAX_PARAMETER_DEPTH} levels, in schema order (`depth`: 1 for a tool's input schema).
 */
export function collectParameterStrings(node: unknown, depth: number, found: ParameterSink): void {
  if (!isRecord(node) || depth > MAX_PARAMETER_DEPTH) return;
  // (each node's own keys read once: named reads of absent keys on schemas of a thousand shapes
  // cost more than one pass over the few keys a node has)
  let properties: unknown;
  let variants = false;
  for (const key in node) {
    if (key === 'properties') properties = node[key];
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') variants = true;
  }
  if (isRecord(properties)) {
    const names = Object.keys(properties);
    for (let i = 0; i < names.length; i++) {
      if (found.count++ >= MAX_PARAMETERS) return;
      const name = names[i]!;
      found.add(name);
      const property = properties[name];
      if (isRecord(property)) {
        let title: unknown;
        let description: unknown;
        let items: unknown;
        let nested = false;
        for (const key in property) {
          if (key === 'title') title = property[key];
          else if (key === 'description') description = property[key];
          else if (key === 'items') items = property[key];
          else if (key === 'properties' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') nested = true;
        }
        if (typeof title === 'string') found.add(title);
        if (typeof description === 'string') found.add(description);
        if (nested) collectParameterStrings(property, depth + 1, found);
        if (isRecord(items)) collectParameterStrings(items, depth + 1, found);
      }
    }
  }
  if (!variants) return;
  for (let k = 0; k < VARIANT_KEYS.length; k++) {
    const list = node[VARIANT_KEYS[k]!];
    if (Array.isArray(list)) {
      for (let i = 0; i < list.length; i++) collectParameterStrings(list[i], depth, found);
    }
  }
}

const VARIANT_KEYS = ['anyOf', 'oneOf', 'allOf'] as const;
