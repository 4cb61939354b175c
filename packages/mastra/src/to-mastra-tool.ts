import type { StandardSchemaWithJSON } from '@mastra/core/schema';
import { createTool, type Tool } from '@mastra/core/tools';
import type { OfferedTool, ToolSearchStep } from '@toolscout/core';
import { carrySettings, executeThroughStep, standardJsonSchema } from '@toolscout/core/internal';
import type { MastraTool } from './from-mastra-tools.js';

/** Settings of the original tool that change how Mastra runs or shows a call, carried to the wrapper. */
const CARRIED_SETTINGS = [
  // approval, suspension and how the call runs
  ...['requireApproval', 'needsApprovalFn', 'suspendSchema', 'resumeSchema', 'background', 'transform'],
  // what the model and the UI see
  ...['toModelOutput', 'providerOptions', 'strict', 'inputExamples', 'title', 'mcp', 'mcpMetadata'],
  // streaming hooks
  ...['onInputStart', 'onInputDelta', 'onInputAvailable', 'onOutput'],
] as const;

/**
 * The Mastra tool the model is offered for one of a step's tools: its name, description and JSON Schema as the session
 * offers them, and a call that goes through the step (`step.execute`: the policy's `call` phase, argument validation,
 * then the tool itself with Mastra's context). Approval, suspension and output settings of the original Mastra tool are
 * kept. A call the session refuses, or a tool that fails, throws a `ToolCallFailedError`, which Mastra reports to the
 * model as the call's error: its message says what to do instead.
 */
export function toMastraTool(offered: OfferedTool<MastraTool>, step: ToolSearchStep<MastraTool>): Tool {
  const wrapper = createTool({
    id: offered.name,
    description: offered.description,
    // Mastra sees the JSON Schema and lets any input through: the session validates with the tool's own schema.
    inputSchema: standardJsonSchema(offered.inputSchema) as StandardSchemaWithJSON<Record<string, unknown>>,
  }) as unknown as Tool;
  carrySettings(offered.tool?.tool, wrapper, CARRIED_SETTINGS);
  // Set after construction, which skips Mastra's input validation wrapper; Mastra's context of the call
  // travels as `host`, so that the original tool gets exactly what Mastra gave the call.
  (wrapper as unknown as { execute: unknown }).execute = executeThroughStep(step, offered.name);
  return wrapper;
}
