import type { SearchField } from '../types.js';
import { findDoc, type TermEntry } from './keyword-index.js';
import type { IndexField } from './tool-document.js';

/** The field of a hit's match report that each index field counts as. */
const REPORTED_FIELD: Readonly<Record<IndexField, SearchField>> = {
  name: 'name',
  description: 'description',
  tags: 'tags',
  source: 'tags',
  parameters: 'parameters',
  phrases: 'name', // (phrase matches add evidence but are not reported as term matches)
};

/** One index term a query term matched (itself, a longer word it starts, a near spelling), weighted. */
export interface TermSource {
  term: string;
  entry: TermEntry;
  weight: number;
}

/** A field a term is scored in: its name, number (position in `INDEX_FIELDS`) and boost. */
export interface FieldSpec {
  name: string;
  id: number;
  boost: number;
}

/**
 * The tools matching one query, by slot (the order they were first found in): their evidence and
 * what went into it, in typed arrays that grow as candidates come (one search can touch most tools).
 */
export class RankingState {
  readonly ids: string[] = [];
  /** The keyword index's document number of each slot. */
  readonly docs: number[] = [];
  /** Each slot's source number (-1: none, or sources not used). */
  readonly sources: number[] = [];
  /** Per query term, the index terms it was scored with (for the match report). */
  readonly termSources: TermSource[][] = [];
  /** The fields query terms were scored in. */
  fields: readonly FieldSpec[] = [];
  count = 0;
  /** Whether every tool the query matched has a slot (else only those that can reach the search's depth). */
  complete = true;
  sum = new Float64Array(256);
  matched = new Uint16Array(256);
  evidence = new Float64Array(256);
  clauseSum: Float64Array;
  clauseMatched: Uint16Array;

  constructor(
    /** The distinct query terms. */
    readonly terms: readonly string[],
    /** The number of clauses when there are several, else 0. */
    readonly width: number,
  ) {
    this.clauseSum = new Float64Array(256 * width);
    this.clauseMatched = new Uint16Array(256 * width);
  }

  addCandidate(id: string, doc: number, source: number): number {
    const slot = this.count++;
    if (slot >= this.sum.length) this.#grow();
    this.ids.push(id);
    this.docs.push(doc);
    this.sources.push(source);
    return slot;
  }

  /** Per slot, the query terms (by number, ascending) {@link RankingState.record} was given (several clauses only). */
  readonly #termsOf: number[][] = [];

  /** Adds query term `term`'s score of a slot (terms in order) to its sums and those of the term's `clauses`. */
  record(slot: number, term: number, clauses: readonly number[], score: number): void {
    const terms = this.#termsOf[slot];
    if (terms === undefined) this.#termsOf[slot] = [term];
    else terms.push(term);
    this.sum[slot]! += score;
    this.matched[slot]! += 1;
    const width = this.width;
    if (width > 0) {
      for (const c of clauses) {
        this.clauseSum[slot * width + c]! += score;
        this.clauseMatched[slot * width + c]! += 1;
      }
    }
  }

  /**
   * Which query terms the tool matched, and in which of the reported fields (looked up again in the
   * postings of the index terms each query term was scored with: only hits need it).
   */
  matchesOf(slot: number): Record<string, SearchField[]> {
    const doc = this.docs[slot]!;
    const found: [string, SearchField[]][] = [];
    // (with several clauses the terms that matched the tool are known: the others match none of its postings)
    const known = this.width > 0 ? (this.#termsOf[slot] ?? []) : undefined;
    for (let i = 0; i < (known === undefined ? this.terms.length : known.length); i++) {
      const t = known === undefined ? i : known[i]!;
      // The index terms and fields the tool matched, in the order of the original MiniSearch report
      // (its match object's key order included: integer-like terms first).
      const match: Record<string, string[]> = Object.create(null);
      for (const source of this.termSources[t] ?? []) {
        for (const field of this.fields) {
          const postings = source.entry.fields[field.id];
          if (postings === undefined || findDoc(postings, doc) < 0) continue;
          const list = match[source.term];
          if (list === undefined) match[source.term] = [field.name];
          else list.push(field.name);
        }
      }
      const fields = new Set<SearchField>();
      for (const matched of Object.values(match)) {
        for (const field of matched) fields.add(REPORTED_FIELD[field as IndexField] ?? 'description');
      }
      if (fields.size > 0) found.push([this.terms[t]!, [...fields]]);
    }
    return Object.fromEntries(found);
  }

  #grow(): void {
    const size = this.sum.length * 2;
    const grow = <T extends Float64Array | Uint16Array | Int32Array>(array: T, make: (n: number) => T, scale = 1) => {
      const grown = make(size * scale);
      grown.set(array);
      return grown;
    };
    this.sum = grow(this.sum, (n) => new Float64Array(n));
    this.matched = grow(this.matched, (n) => new Uint16Array(n));
    this.evidence = grow(this.evidence, (n) => new Float64Array(n));
    this.clauseSum = grow(this.clauseSum, (n) => new Float64Array(n), this.width);
    this.clauseMatched = grow(this.clauseMatched, (n) => new Uint16Array(n), this.width);
  }
}
