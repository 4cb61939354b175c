import { AsyncLocalStorage } from 'node:async_hooks';
import type { LangChainTool } from './langchain-tool.js';

/**
 * Runs a LangChain tool for the tool call in progress, the way the host runs tools (the agent's
 * `wrapToolCall` handler, or `tool.invoke(toolCall, config)` in a custom graph), so the tool gets its
 * `ToolRuntime` (state, context, tool call id, store, writer) and may return a `ToolMessage` or a
 * `Command`.
 */
export type RunLangChainTool = (tool: LangChainTool, input: unknown) => Promise<unknown>;

/**
 * The host's way of running a LangChain tool, set around `step.execute` for one tool call. A
 * descriptor made by `fromLangChainTool` runs its tool through it when present, after core has
 * checked the call (offered, policy, arguments); without it, it calls `tool.invoke(input)`.
 *
 * @internal
 */
export const toolCallBridge: AsyncLocalStorage<RunLangChainTool> = new AsyncLocalStorage<RunLangChainTool>();
