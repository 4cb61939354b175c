/** Whether a value is an async iterable (a streaming tool's output: an async generator). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The last value of a streaming output (what a model reads of a streaming tool), or the output itself. */
export async function lastValue(output: unknown): Promise<unknown> {
  if (!isAsyncIterable(output)) return output;
  let last: unknown;
  for await (const value of output) last = value;
  return last;
}
