import { InvalidToolError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import { describeValue, isIterable } from '../values.js';

/**
 * The descriptors of a list that mixes a framework's tools (recognised by `isTool`, converted by
 * `convert`) and core descriptors (as they are: the catalog checks them).
 *
 * @throws InvalidToolError when `tools` is not iterable: `Expected an iterable of <kind>s or tool
 * descriptors, got ...`; whatever `convert` throws.
 */
export function descriptorsOfList<TFrameworkTool, TTool>(
  tools: unknown,
  kind: string,
  isTool: (value: unknown) => value is TFrameworkTool,
  convert: (tool: TFrameworkTool) => ToolDescriptor<TTool>,
): ToolDescriptor<TTool>[] {
  if (!isIterable(tools)) {
    throw new InvalidToolError(`Expected an iterable of ${kind}s or tool descriptors, got ${describeValue(tools)}`);
  }
  return [...tools].map((tool) => (isTool(tool) ? convert(tool) : (tool as ToolDescriptor<TTool>)));
}
