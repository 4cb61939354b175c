import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What Mastra hands a tool's `execute` besides its input: `requestContext`, `abortSignal`, `writer`,
 * `agent: { toolCallId, messages, suspend, ... }`, `mastra`, `memory`, ...
 */
export type MastraExecutionContext = Record<string, unknown>;

const storage = new AsyncLocalStorage<MastraExecutionContext>();

/**
 * Runs `fn` with Mastra's execution context of the current tool call at hand. The session runs a
 * catalog tool through its descriptor's `execute`, which only receives toolscout's context; the
 * descriptor reads Mastra's own context from here, so the original tool gets exactly what Mastra gave
 * the call (request context, writer, suspend, abort signal).
 */
export function withCallContext<T>(context: MastraExecutionContext | undefined, fn: () => T): T {
  return context ? storage.run(context, fn) : fn();
}

/** Mastra's execution context of the tool call being run, when there is one. */
export function currentCallContext(): MastraExecutionContext | undefined {
  return storage.getStore();
}
