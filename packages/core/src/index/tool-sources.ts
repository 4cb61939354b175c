import type { CatalogTool } from '../types.js';
import { NameHeads } from './name-heads.js';

/**
 * The sources (API, server) of an index's tools, for the source evidence: each source's number
 * (never reused) and how many tools it has, how many sources have tools, and each tool's source by
 * document number (-1: none); and their names' heads, for the object-head evidence.
 */
export class ToolSources {
  readonly #numbers = new Map<string, number>();
  /** How many tools each source has, by source number. */
  readonly sizeOf: number[] = [];
  #ofDoc = new Int32Array(0);
  /** Each document's source number (-1: none), by document number (4 bytes a document: a search reads one per posting). */
  get ofDoc(): Int32Array {
    return this.#ofDoc;
  }
  /** How many sources have tools. */
  inUse = 0;
  /** The heads of the tools' names. */
  readonly heads = new NameHeads();

  /** Records the source of a tool new to the index; `doc` is its document number in the keyword index. */
  track(tool: CatalogTool<unknown>, doc: number): void {
    this.heads.track(doc, tool.name);
    const source = tool.source?.trim();
    if (doc >= this.#ofDoc.length) {
      const grown = new Int32Array(Math.max(doc + 1, 2 * this.#ofDoc.length, 256)).fill(-1);
      grown.set(this.#ofDoc);
      this.#ofDoc = grown;
    }
    this.#ofDoc[doc] = -1;
    if (!source) return;
    let number = this.#numbers.get(source);
    if (number === undefined) {
      number = this.#numbers.size;
      this.#numbers.set(source, number);
      this.sizeOf.push(0);
    }
    if (this.sizeOf[number]!++ === 0) this.inUse += 1;
    this.#ofDoc[doc] = number;
  }

  /** Forgets the source of the tool of document `doc` (leaving the index). */
  untrack(doc: number): void {
    this.heads.untrack(doc);
    const number = this.#ofDoc[doc];
    if (number === undefined || number < 0) return;
    this.#ofDoc[doc] = -1;
    if (--this.sizeOf[number]! === 0) this.inUse -= 1;
  }
}
