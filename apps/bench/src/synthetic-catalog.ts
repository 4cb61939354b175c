// Catalogs of any size made from the datasets' real tools, and a fixed sample of their queries.
import type { ToolDescriptor } from '@toolscout/core';
import type { Dataset } from './datasets.js';
import { seededRandom, shuffled } from './stats.js';

/** The seed every generated catalog and query sample uses unless told otherwise. */
export const DEFAULT_SEED = 20_261_121;

/** Words a variant's name gets, as real catalogs name editions of one API. */
const QUALIFIERS = [
  'Pro',
  'Lite',
  'Plus',
  'Batch',
  'Legacy',
  'Beta',
  'Cloud',
  'Edge',
  'Enterprise',
  'Mobile',
  'Global',
  'Secure',
  'Express',
  'Bulk',
  'Async',
  'Premium',
] as const;

/** The tools of several datasets, each id once (the first dataset that has it wins). */
export function poolTools(datasets: readonly Dataset[]): ToolDescriptor[] {
  const seen = new Set<string>();
  const tools: ToolDescriptor[] = [];
  for (const dataset of datasets) {
    for (const tool of dataset.tools) {
      if (seen.has(tool.id)) continue;
      seen.add(tool.id);
      tools.push(tool);
    }
  }
  return tools;
}

/** Up to `maxWords` consecutive words of `text`, from a seeded position. */
function fragment(text: string, maxWords: number, random: () => number): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  if (words.length <= maxWords) return words.join(' ');
  const start = Math.floor(random() * (words.length - maxWords + 1));
  return words.slice(start, start + maxWords).join(' ');
}

/**
 * A catalog of exactly `size` tools made from `base` (real tools), deterministic for a seed:
 * - up to `base.length`: a seeded sample of the real tools;
 * - beyond: every real tool, then variants of them in rounds (round `r` of tool `t` has id
 *   `t.id~r`, its name plus a qualifier such as "Pro" or "Cloud", and its description followed by a
 *   fragment of up to 12 words of another real tool's description); tags, source and parameters are
 *   the original's.
 */
export function syntheticCatalog(base: readonly ToolDescriptor[], size: number, seed = DEFAULT_SEED): ToolDescriptor[] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`A catalog size must be a positive integer, got ${size}.`);
  if (base.length === 0) throw new Error('Cannot make a catalog from no tools.');
  const random = seededRandom(seed);
  const order = shuffled(base, random);
  if (size <= order.length) return order.slice(0, size);
  const tools = [...order];
  for (let k = 0; tools.length < size; k++) {
    const source = order[k % order.length]!;
    const round = Math.floor(k / order.length) + 1;
    const other = order[Math.floor(random() * order.length)]!;
    const qualifier = QUALIFIERS[Math.floor(random() * QUALIFIERS.length)]!;
    const extra = fragment(other.description ?? '', 12, random);
    const description = [source.description ?? '', extra].filter((part) => part !== '').join(' ');
    const variant: ToolDescriptor = {
      id: `${source.id}~${round}`,
      name: `${source.name ?? source.id} ${qualifier}`,
      description,
    };
    if (source.inputSchema !== undefined) variant.inputSchema = source.inputSchema;
    if (source.tags !== undefined) variant.tags = source.tags;
    if (source.source !== undefined) variant.source = source.source;
    tools.push(variant);
  }
  return tools;
}

/**
 * A fixed sample of `count` queries, taken as evenly as possible from each dataset (seeded), in a
 * seeded order.
 */
export function sampleQueries(datasets: readonly Dataset[], count: number, seed = DEFAULT_SEED): string[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`A query count must be a positive integer, got ${count}.`);
  const random = seededRandom(seed + 1);
  const pools = datasets.map((dataset) => shuffled(dataset.queries, random).map((query) => query.query));
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    let added = false;
    for (const pool of pools) {
      if (out.length >= count) break;
      const query = pool[i];
      if (query !== undefined) {
        out.push(query);
        added = true;
      }
    }
    if (!added) break;
  }
  if (out.length === 0) throw new Error('The datasets have no queries.');
  return shuffled(out, random);
}
