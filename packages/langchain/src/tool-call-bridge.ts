import type { LangChainTool } from './langchain-tool.js';

/**
 * Runs a LangChain tool for the tool call in progress, the way the host runs tools (the agent's
 * `wrapToolCall` handler, or `tool.invoke(toolCall, config)` in a custom graph), so the tool gets its
 * `ToolRuntime` (state, context, tool call id, store, writer) and may return a `ToolMessage` or a
 * `Command`.
 */
export type RunLangChainTool = (tool: LangChainTool, input: unknown) => Promise<unknown>;

/**
 * What the middleware hands `step.execute` as `host` for one tool call: the host's way of running
 * a LangChain tool. A descriptor made by `fromLangChainTool` runs its tool through it when present,
 * after core has checked the call (offered, policy, arguments); without it, it calls
 * `tool.invoke(input)`.
 *
 * @internal
 */
export interface LangChainCallHost {
  readonly runLangChainTool: RunLangChainTool;
}

/** The LangChain host data of a tool call, when the call came through the middleware. */
export function langChainCallHost(host: unknown): LangChainCallHost | undefined {
  return typeof host === 'object' &&
    host !== null &&
    typeof (host as Partial<LangChainCallHost>).runLangChainTool === 'function'
    ? (host as LangChainCallHost)
    : undefined;
}
