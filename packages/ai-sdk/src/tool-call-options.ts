import type { ToolExecutionOptions } from 'ai';

/**
 * The AI SDK's options of each running call (tool call id, messages, tool context), keyed by the
 * abort signal made for that call. A call goes through `ToolSearchStep.execute`, which hands a
 * tool's `execute` only toolscout's context, but passes the abort signal through unchanged: the
 * signal is how the AI SDK tool behind a descriptor finds the options of its own call.
 */
const optionsBySignal = new WeakMap<AbortSignal, ToolExecutionOptions<unknown>>();

/** A signal of its own for one call (following the AI SDK's), remembered with the call's options. */
export function bindCallOptions(options: ToolExecutionOptions<unknown>): AbortSignal {
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal]) : new AbortController().signal;
  optionsBySignal.set(signal, options);
  return signal;
}

/** The AI SDK options of the call that owns this signal, when it came from an AI SDK generation. */
export function callOptionsFor(signal: AbortSignal | undefined): ToolExecutionOptions<unknown> | undefined {
  return signal ? optionsBySignal.get(signal) : undefined;
}
