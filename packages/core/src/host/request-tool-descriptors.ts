import type { ToolDescriptor } from '../types.js';
import { withKeyAlias } from './key-aliases.js';

/** One tool converted under one record key: its descriptor, and the same with the key as an alias once made. */
interface Converted<TTool> {
  key: string;
  base: ToolDescriptor<TTool>;
  aliased?: ToolDescriptor<TTool>;
}

/**
 * The descriptors of the tools a request brings (`StepRequest.tools`: a framework's per-request
 * tools), converted once per tool object: every step of a request, and every request with the same
 * tool objects, hands core the same descriptor objects, which core indexes once (later steps then
 * cost lookups). Ids are the tools' own, or their record keys; a key that differs from the id is an
 * alias (see {@link withKeyAlias}); of two tools with one id, the later wins.
 */
export class RequestToolDescriptors<TTool, TInput = TTool> {
  readonly #cache = new WeakMap<object, Converted<TTool>>();
  readonly #convert: (tool: TInput, key: string) => ToolDescriptor<TTool>;

  /** @param convert Converts one framework tool (with its record key) into a descriptor; may throw for a bad tool. */
  constructor(convert: (tool: TInput, key: string) => ToolDescriptor<TTool>) {
    this.#convert = convert;
  }

  /** The descriptors of a record of tools by name, leaving out the keys `skip` names. */
  of(tools: Readonly<Record<string, TInput>>, skip: (key: string) => boolean = () => false): ToolDescriptor<TTool>[] {
    const entries = Object.entries(tools).flatMap(([key, tool]) => (skip(key) ? [] : [this.#converted(tool, key)]));
    const ids = new Set(entries.map(({ base }) => base.id));
    const byId = new Map<string, ToolDescriptor<TTool>>();
    for (const converted of entries) {
      byId.delete(converted.base.id); // the later wins, in its own place
      byId.set(converted.base.id, withAlias(converted, ids));
    }
    return [...byId.values()];
  }

  #converted(tool: TInput, key: string): Converted<TTool> {
    const cacheable = (typeof tool === 'object' || typeof tool === 'function') && tool !== null;
    const cached = cacheable ? this.#cache.get(tool) : undefined;
    if (cached?.key === key) return cached;
    const converted: Converted<TTool> = { key, base: this.#convert(tool, key) };
    if (cacheable) this.#cache.set(tool, converted);
    return converted;
  }
}

/** The converted tool with its key as an alias when the key is free, made once. */
function withAlias<TTool>(converted: Converted<TTool>, ids: ReadonlySet<string>): ToolDescriptor<TTool> {
  const aliased = withKeyAlias(converted.base, converted.key, ids);
  if (aliased === converted.base) return aliased;
  converted.aliased ??= aliased;
  return converted.aliased;
}
