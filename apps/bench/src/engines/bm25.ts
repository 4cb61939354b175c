// The floor: a plain Okapi BM25 over all of a tool's fields, as the datasets' README defines it.
import type { ToolDescriptor } from '@toolscout/core';
import type { EngineIndex, PreparedCatalog, RankingEngine } from './engine.js';

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalisation. */
const B = 0.75;

/** Words of a text: split at camelCase, snake_case and every non-alphanumeric, lower-cased; no stemming. */
export function bm25Words(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function parameterText(schema: unknown): string {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties as Record<string, { description?: unknown } | null>)
    .map(([name, property]) => `${name} ${typeof property?.description === 'string' ? property.description : ''}`)
    .join(' ');
}

/** The one text a tool is indexed as: name (or id), description, tags, source, parameter names and descriptions. */
export function bm25Text(tool: ToolDescriptor): string {
  return [
    tool.name ?? tool.id,
    tool.description ?? '',
    ...(tool.tags ?? []),
    tool.source ?? '',
    parameterText(tool.inputSchema),
  ].join(' ');
}

/**
 * Okapi BM25 (k1 1.2, b 0.75, IDF `ln(1 + (N − df + 0.5) / (df + 0.5))`) over {@link bm25Text}, words
 * from {@link bm25Words}; ties keep catalog order. No stop words, no stemming, no field weights.
 * Synchronous: the bench's `bm25` engine and `ranking-eval.ts` both rank with it.
 */
export function createBm25Ranker(tools: readonly ToolDescriptor[]): (query: string, limit: number) => string[] {
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  tools.forEach((tool, doc) => {
    const words = bm25Words(bm25Text(tool));
    lengths.push(words.length);
    for (const word of words) {
      let posting = postings.get(word);
      if (!posting) {
        posting = new Map();
        postings.set(word, posting);
      }
      posting.set(doc, (posting.get(doc) ?? 0) + 1);
    }
  });
  const n = lengths.length;
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(n, 1);
  return (query, limit) => {
    const scores = new Map<number, number>();
    for (const word of bm25Words(query)) {
      const posting = postings.get(word);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [doc, tf] of posting) {
        const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, limit)
      .map(([doc]) => tools[doc]!.id);
  };
}

/** The floor engine: {@link createBm25Ranker} behind the bench's engine interface. */
export const bm25Engine: RankingEngine = {
  name: 'bm25',
  description: 'plain BM25 over all fields (the datasets’ floor)',
  async prepare(tools: readonly ToolDescriptor[]): Promise<PreparedCatalog> {
    return {
      async build({ limit }): Promise<EngineIndex> {
        const rank = createBm25Ranker(tools);
        return {
          async search(query) {
            return rank(query, limit);
          },
        };
      },
    };
  },
};
