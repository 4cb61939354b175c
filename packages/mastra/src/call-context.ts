/**
 * What Mastra hands a tool's `execute` besides its input: `requestContext`, `abortSignal`, `writer`,
 * `agent: { toolCallId, messages, suspend, ... }`, `mastra`, `memory`, ...
 */
export type MastraExecutionContext = Record<string, unknown>;

/**
 * What a Mastra tool made by `toMastraTool` hands `step.execute` as `host`: Mastra's context of the
 * call. The session runs a catalog tool through its descriptor's `execute`, which reads it back from
 * `context.host`, so the original tool gets exactly what Mastra gave the call.
 */
export interface MastraCallHost {
  readonly mastraContext: MastraExecutionContext;
}

/** Mastra's context of a tool call from a step's `host`, when the call came through Mastra. */
export function mastraCallHost(host: unknown): MastraCallHost | undefined {
  if (typeof host !== 'object' || host === null) return undefined;
  const context = (host as Partial<MastraCallHost>).mastraContext;
  return typeof context === 'object' && context !== null ? (host as MastraCallHost) : undefined;
}
