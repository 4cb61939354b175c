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
  const properties = node.properties;
  if (isRecord(properties)) {
    const names = Object.keys(properties);
    for (let i = 0; i < names.length; i++) {
      if (found.count++ >= MAX_PARAMETERS) return;
      const name = names[i]!;
      found.add(name);
      const property = properties[name];
      if (isRecord(property)) {
        if (typeof property.title === 'string') found.add(property.title);
        if (typeof property.description === 'string') found.add(property.description);
        collectParameterStrings(property, depth + 1, found);
        if (isRecord(property.items)) collectParameterStrings(property.items, depth + 1, found);
      }
    }
  }
  for (let k = 0; k < VARIANT_KEYS.length; k++) {
    const variants = node[VARIANT_KEYS[k]!];
    if (Array.isArray(variants)) {
      for (let i = 0; i < variants.length; i++) collectParameterStrings(variants[i], depth, found);
    }
  }
}

const VARIANT_KEYS = ['anyOf', 'oneOf', 'allOf'] as const;
