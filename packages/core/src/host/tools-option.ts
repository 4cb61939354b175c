import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import { describeValue, isIterable, isRecord } from '../values.js';

/** How an entry point reads one of its tools options; see {@link toolsOption}. */
export interface ToolsOptionRule<TTool> {
  /** The option's name (`catalog`, `tools`). */
  option: string;
  /** What it takes, for the error: e.g. `a record of X tools, an iterable of tool descriptors or a ToolCatalog`. */
  expected: string;
  /** Converts a record of the framework's tools by name into descriptors. */
  convert: (tools: Record<string, unknown>) => ToolDescriptor<TTool>[];
  /** Added to the error when the option is absent, e.g. how earlier versions took the tools. */
  absent?: string;
}

/** Whether a value is a record of tools by name: an object that is not iterable (not a list, not a catalog). */
export function isToolRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !(Symbol.iterator in value);
}

/**
 * The tools of an entry point's option as a session takes them: a `ToolCatalog` as it is (the session
 * follows it), an iterable of descriptors as it is (the catalog checks each), a record of the
 * framework's tools converted. Anything else is an {@link InvalidOptionError} naming the option.
 */
export function toolsOption<TTool>(
  tools: unknown,
  rule: ToolsOptionRule<TTool>,
): ToolCatalog<TTool> | Iterable<ToolDescriptor<TTool>> {
  if (tools instanceof ToolCatalog) return tools as ToolCatalog<TTool>;
  if (isToolRecord(tools)) return rule.convert(tools);
  if (isIterable(tools)) return tools as Iterable<ToolDescriptor<TTool>>;
  const absent = tools === undefined && rule.absent !== undefined ? ` ${rule.absent}` : '';
  throw new InvalidOptionError(
    rule.option,
    `${rule.option} must be ${rule.expected}; got ${describeValue(tools)}.${absent}`,
  );
}
