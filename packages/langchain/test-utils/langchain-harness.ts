import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { ConformanceHarness, HarnessAgent, Transcript } from '@toolscout/conformance';
import { parseJsonOrText } from '@toolscout/test-kit';
import { createAgent } from 'langchain';
import { toLangChainTool } from '../src/langchain-tool.js';
import { LangChainToolSearch } from '../src/langchain-tool-search.js';
import { RecordingFakeModel } from './recording-fake-model.js';

/** The system text of a model call: its system messages joined by a blank line, or undefined without one. */
function systemText(messages: readonly BaseMessage[]): string | undefined {
  const texts = messages.filter((message) => SystemMessage.isInstance(message)).map((message) => message.text);
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

function isMessageList(history: unknown): history is BaseMessage[] {
  return (
    Array.isArray(history) &&
    history.every((message) => AIMessage.isInstance(message) || typeof (message as BaseMessage)?.getType === 'function')
  );
}

let agentCount = 0;

/**
 * The conformance harness of `@toolscout/langchain`: a real `createAgent` with the toolscout
 * middleware and LangChain's fake chat model, which follows each turn's script and records the tools
 * bound and the system text at every model call. The history is the agent's messages, passed back in
 * on the next turn; the thread id goes in `configurable.thread_id`, the context in
 * `invoke(..., { context })`. The setup's `hostTools` are `createAgent`'s own tools.
 */
export function createLangChainHarness(): ConformanceHarness {
  return {
    createAgent(setup): HarnessAgent {
      const search = new LangChainToolSearch({ catalog: setup.tools, tools: setup.directTools, ...setup.options });
      const model = new RecordingFakeModel();
      const own = (setup.hostTools ?? []).map((tool) => toLangChainTool(tool));
      const agent = createAgent({ model, tools: own, middleware: [search.middleware()] });
      const agentId = `agent${++agentCount}`;
      let turns = 0;
      let queued = 0;
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !isMessageList(turn.history)) {
            throw new TypeError(
              'The LangChain harness takes the history (agent messages) it returned from an earlier turn.',
            );
          }
          const prefix = `${agentId}-turn${++turns}`;
          // Message ids are unique per agent and turn: LangGraph's messages reducer replaces by id.
          turn.script.forEach((action, step) => {
            if (action.type === 'answer') {
              model.respond(new AIMessage({ id: `${prefix}-ai${step}`, content: action.text }));
            } else {
              model.respond(
                new AIMessage({
                  id: `${prefix}-ai${step}`,
                  content: '',
                  tool_calls: action.calls.map((call, index) => ({
                    id: `${prefix}-call${step}-${index}`,
                    name: call.toolName,
                    args: call.input as Record<string, unknown>,
                    type: 'tool_call' as const,
                  })),
                }),
              );
            }
          });
          queued += turn.script.length;
          const history = turn.history ?? [];
          const prompt = new HumanMessage({ id: `${prefix}-user`, content: turn.prompt });
          const offeredBefore = model.offered.length;
          const result = await agent.invoke(
            { messages: [...history, prompt] },
            { configurable: turn.threadId === undefined ? {} : { thread_id: turn.threadId }, context: turn.context },
          );
          if (model.callCount !== queued) {
            throw new Error(`The agent made ${model.callCount} model calls in all; the scripts had ${queued} steps.`);
          }
          const messages = result.messages as BaseMessage[];
          const start = messages.findIndex((message) => message.id === prompt.id);
          const results = messages
            .slice(start + 1)
            .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
            .map((message) => ({
              toolName: message.name ?? '',
              output: parseJsonOrText(message.text),
              isError: message.status === 'error',
            }));
          const steps = model.offered.slice(offeredBefore).map((tools, step) => ({
            offered: tools.map((tool) => tool.name),
            descriptions: Object.fromEntries(tools.map((tool) => [tool.name, tool.description])),
            system: systemText(model.calls[offeredBefore + step]?.messages ?? []),
          }));
          return { steps, results, history: messages };
        },
      };
    },
    trimHistory(history, toolNames) {
      if (!isMessageList(history)) throw new TypeError('Not a LangChain harness history.');
      const names = new Set(toolNames);
      const removedCalls = new Set<string>();
      const kept: BaseMessage[] = [];
      for (const message of history) {
        if (AIMessage.isInstance(message) && message.tool_calls?.some((call) => names.has(call.name))) {
          for (const call of message.tool_calls) if (names.has(call.name) && call.id) removedCalls.add(call.id);
          kept.push(
            new AIMessage({
              id: message.id,
              content: message.content,
              tool_calls: message.tool_calls.filter((call) => !names.has(call.name)),
            }),
          );
        } else if (
          ToolMessage.isInstance(message) &&
          (names.has(message.name ?? '') || removedCalls.has(message.tool_call_id))
        ) {
        } else {
          kept.push(message);
        }
      }
      return kept;
    },
  };
}
