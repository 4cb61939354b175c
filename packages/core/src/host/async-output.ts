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

/** Whether a function is an async generator function (a streaming tool's `execute`). */
export function isAsyncGeneratorFunction(value: unknown): boolean {
  return Object.prototype.toString.call(value) === '[object AsyncGeneratorFunction]';
}

/** A streaming output again, for hosts that stream a tool's values: the values of `output`, or `output` as one value. */
export async function* streamOf(output: Promise<unknown>): AsyncGenerator<unknown> {
  const value = await output;
  if (isAsyncIterable(value)) yield* value;
  else yield value;
}
