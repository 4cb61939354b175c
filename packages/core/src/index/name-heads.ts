import { nameHead } from '../text/name-head.js';
import { objectHead } from '../text/object-head.js';
import type { KeywordIndex } from './keyword-index.js';
import type { RankingParams } from './ranking-params.js';
import { INDEX_FIELDS } from './tool-document.js';

const NAME_FIELD = INDEX_FIELDS.indexOf('name');

/**
 * The object-head evidence: each indexed tool's name by document number, and its head
 * ({@link nameHead}) computed when first asked; a request whose object's head ({@link objectHead})
 * is a tool's name head weighs that term more for the tool (`certificate_list` over
 * `certificate_issuer_list` for "list the certificates in vault X").
 */
export class NameHeads {
  readonly #names: (string | undefined)[] = [];
  /** Each document's head term (`null`: none), `undefined` until computed. */
  readonly #heads: (string | null | undefined)[] = [];

  /** Records the name of the tool of document `doc`. */
  track(doc: number, name: string): void {
    this.#names[doc] = name;
    this.#heads[doc] = undefined;
  }

  /** Forgets document `doc` (its tool left the index). */
  untrack(doc: number): void {
    this.#names[doc] = undefined;
    this.#heads[doc] = undefined;
  }

  /** The head term of document `doc`'s name, or `null` when it has none. */
  of(doc: number): string | null {
    let head = this.#heads[doc];
    if (head === undefined) {
      const name = this.#names[doc];
      head = (name === undefined ? undefined : nameHead(name)) ?? null;
      this.#heads[doc] = head;
    }
    return head;
  }

  /** The request's object head when the ranking weighs it (`headWeight` and names weigh more than 0). */
  requestHead(query: string, ranking: RankingParams): string | undefined {
    return ranking.headWeight > 0 && ranking.fieldWeights.name > 0 ? objectHead(query) : undefined;
  }

  /**
   * Multiplies by `1 + headWeight` the term score (`scores`, by document number) of each document
   * that has `term` in its name, whose name's head it is, and that the term touched (its `marks`
   * entry is `stamp`).
   */
  boost(
    keyword: KeywordIndex,
    term: string,
    ranking: RankingParams,
    scores: Float64Array,
    marks: Int32Array | Uint16Array,
    stamp: number,
  ): void {
    const names = keyword.get(term)?.fields[NAME_FIELD];
    if (names === undefined) return;
    const factor = 1 + ranking.headWeight;
    const { data, docsAt, length } = names;
    for (let i = 0; i < length; i++) {
      const doc = data[docsAt + i]!;
      if (marks[doc] === stamp && this.of(doc) === term) scores[doc]! *= factor;
    }
  }
}
