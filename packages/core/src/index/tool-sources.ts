import type { CatalogTool } from '../types.js';

/**
 * The sources (API, server) of an index's tools, for the source evidence: each source's number
 * (never reused) and how many tools it has, how many sources have tools, and each tool's source by
 * id and by document number (-1: none).
 */
export class ToolSources {
  readonly #numbers = new Map<string, number>();
  readonly #ofTool = new Map<string, number>();
  /** How many tools each source has, by source number. */
  readonly sizeOf: number[] = [];
  /** Each document's source number (-1: none), by document number. */
  readonly ofDoc: number[] = [];
  /** How many sources have tools. */
  inUse = 0;

  /** Records a tool's source; `doc` is its document number in the keyword index. */
  track(tool: CatalogTool<unknown>, doc: number): void {
    this.untrack(tool.id);
    const source = tool.source?.trim();
    this.ofDoc[doc] = -1;
    if (!source) return;
    let number = this.#numbers.get(source);
    if (number === undefined) {
      number = this.#numbers.size;
      this.#numbers.set(source, number);
      this.sizeOf.push(0);
    }
    if (this.sizeOf[number]!++ === 0) this.inUse += 1;
    this.#ofTool.set(tool.id, number);
    this.ofDoc[doc] = number;
  }

  /** Forgets a tool's source (its document's entry is overwritten when the number is reused). */
  untrack(id: string): void {
    const number = this.#ofTool.get(id);
    if (number === undefined) return;
    this.#ofTool.delete(id);
    if (--this.sizeOf[number]! === 0) this.inUse -= 1;
  }
}
