import { ReducedValue, StateSchema } from '@langchain/langgraph';
import { z } from 'zod/v4';

/** The agent state field where the `agent-state` strategy keeps the loaded tools' names, in load order. */
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

/** The loaded tool names of an agent state (an `invoke` result, a checkpoint's values); none when absent or malformed. */
export function loadedToolsOf(state: unknown): string[] {
  const value = (state as Record<string, unknown> | undefined)?.[LOADED_TOOLS_STATE_KEY];
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}
