import { ReducedValue, StateSchema } from '@langchain/langgraph';
import { z } from 'zod/v4';

/**
 * The agent state field where the `agent-state` strategy keeps the names of the loaded tools, in
 * load order. It is checkpointed with the thread, appears in `agent.invoke` results, and may be given
 * on input to pre-load tools (`{ messages, toolscoutLoadedTools: ['get_weather'] }`).
 */
export const LOADED_TOOLS_STATE_KEY = 'toolscoutLoadedTools';

/** Appends the names not yet present, keeping the order of first load (parallel loads merge). */
function appendNew(current: string[], next: string[] | undefined): string[] {
  return [...new Set([...current, ...(next ?? [])])];
}

/** The middleware state schema of the `agent-state` strategy: one list of tool names, merged on update. */
export const loadedToolsStateSchema = new StateSchema({
  [LOADED_TOOLS_STATE_KEY]: new ReducedValue(
    z.array(z.string()).default(() => []),
    { reducer: appendNew },
  ),
});

/** The type of {@link loadedToolsStateSchema}: the agent state of the `agent-state` strategy. */
export type LoadedToolsStateSchema = typeof loadedToolsStateSchema;

/**
 * The loaded tool names kept by the `agent-state` strategy in an agent state (an `invoke` result, or
 * a checkpoint's values), in load order; none when the field is absent or malformed.
 */
export function loadedToolsOf(state: unknown): string[] {
  const value = (state as Record<string, unknown> | undefined)?.[LOADED_TOOLS_STATE_KEY];
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}
