import { type ConversationEntry, ToolSearchSession } from '@toolscout/core';
import type { ConformanceHarness, Transcript } from './harness.js';

function isEntryList(history: unknown): history is ConversationEntry[] {
  return Array.isArray(history);
}

/**
 * The harness of no framework: a plain agent loop over a {@link ToolSearchSession}, with a model
 * that follows the script. The conformance suite runs against it as part of `pnpm test`, and it is
 * the smallest example of what an adapter does: prepare a step, offer its tools, hand the model
 * `step.instructions` as system text, route every call through `step.execute`, and keep the
 * conversation (the user's messages too, for `preselect`).
 */
export function createReferenceHarness(): ConformanceHarness {
  return {
    createAgent(setup) {
      const session = new ToolSearchSession({ catalog: setup.tools, tools: setup.directTools, ...setup.options });
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !isEntryList(turn.history)) {
            throw new TypeError('The reference harness takes the history it returned from an earlier turn.');
          }
          const conversation: ConversationEntry[] = [
            ...(turn.history ?? []),
            { type: 'user-message', text: turn.prompt },
          ];
          const own = new Map((setup.hostTools ?? []).map((tool) => [tool.id, tool]));
          const hostTools = [...own.keys()];
          const transcript: Transcript = { steps: [], results: [], history: conversation };
          let callId = 0;
          for (const action of turn.script) {
            const step = await session.prepareStep({
              threadId: turn.threadId,
              context: turn.context,
              conversation,
              hostTools,
            });
            // The session's tools, then the agent's own.
            const tools = [
              ...step.tools,
              ...[...own.values()].map((tool) => ({ name: tool.id, description: tool.description ?? '' })),
            ];
            transcript.steps.push({
              offered: tools.map((tool) => tool.name),
              descriptions: Object.fromEntries(tools.map((tool) => [tool.name, tool.description])),
              system: step.instructions,
            });
            if (action.type === 'answer') break;
            // Parallel calls run against the same step, as a framework runs one model response's calls.
            const outcomes = await Promise.all(
              action.calls.map((call) => {
                const hostTool = own.get(call.toolName);
                if (!hostTool) return step.execute(call.toolName, call.input);
                // The agent's own tool: the agent runs it, the session never sees the call.
                const output = hostTool.execute?.(call.input, { toolId: hostTool.id });
                return Promise.resolve(output).then((value) => ({ ok: true as const, output: value }));
              }),
            );
            action.calls.forEach((call, index) => {
              const outcome = outcomes[index]!;
              const toolCallId = `call-${++callId}`;
              const output = outcome.ok ? outcome.output : outcome.error.message;
              conversation.push({ type: 'tool-call', toolCallId, toolName: call.toolName, input: call.input });
              conversation.push({ type: 'tool-result', toolCallId, toolName: call.toolName, output });
              transcript.results.push({ toolName: call.toolName, output, isError: !outcome.ok });
            });
          }
          return transcript;
        },
      };
    },
    trimHistory(history, toolNames) {
      if (!isEntryList(history)) throw new TypeError('Not a reference-harness history.');
      const names = new Set(toolNames);
      return history.filter((entry) => entry.type === 'user-message' || !names.has(entry.toolName));
    },
  };
}
