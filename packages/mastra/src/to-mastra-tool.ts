import type { StandardSchemaWithJSON } from '@mastra/core/schema';
import { createTool, type Tool } from '@mastra/core/tools';
import type { JsonSchema, OfferedTool, ToolSearchStep } from '@toolscout/core';
import { ToolCallFailedError } from '@toolscout/core/errors';
import type { MastraExecutionContext, MastraTool } from './from-mastra-tools.js';

/**
 * The input schema the wrapper shows Mastra: the tool's JSON Schema for the model, and a validation
 * that accepts anything, because the session validates the arguments itself (with the tool's own
 * schema) and reports a mismatch as a tool error the model can act on.
 */
function sessionValidatedSchema(schema: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolscout',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  } as unknown as StandardSchemaWithJSON<Record<string, unknown>>;
}

/** Settings of the original tool that change how Mastra runs or shows a call, carried to the wrapper. */
const CARRIED_SETTINGS = [
  'requireApproval',
  'needsApprovalFn',
  'toModelOutput',
  'providerOptions',
  'strict',
  'mcp',
  'mcpMetadata',
  'transform',
  'inputExamples',
  'suspendSchema',
  'resumeSchema',
  'background',
  'title',
  'onInputStart',
  'onInputDelta',
  'onInputAvailable',
  'onOutput',
] as const;

type MastraToolExecute = (input: unknown, context?: MastraExecutionContext) => Promise<unknown>;

/**
 * The Mastra tool the model is offered for one of a step's tools: its name, description and JSON
 * Schema as the session offers them, and a call that goes through the step (`step.execute`: the
 * policy's `call` phase, argument validation, then the tool itself with Mastra's context). Approval,
 * suspension and output settings of the original Mastra tool are kept. A call the session refuses,
 * or a tool that fails, throws a `ToolCallFailedError`, which Mastra reports to the model as the
 * call's error: its message says what to do instead.
 */
export function toMastraTool(offered: OfferedTool<MastraTool>, step: ToolSearchStep<MastraTool>): Tool {
  const wrapper = createTool({
    id: offered.name,
    description: offered.description,
    inputSchema: sessionValidatedSchema(offered.inputSchema),
  }) as unknown as Tool;
  const original = offered.tool?.tool as Record<string, unknown> | undefined;
  if (original && typeof original === 'object') {
    const settings = wrapper as unknown as Record<string, unknown>;
    for (const setting of CARRIED_SETTINGS) {
      if (original[setting] !== undefined) settings[setting] = original[setting];
    }
  }
  // Set after construction, so Mastra's own input validation wrapper is skipped: the session validates,
  // and the context Mastra passes (which records that its tool builder checked the input) reaches the
  // original tool untouched.
  // Mastra's context of the call travels with it as `host`, so that a catalog tool the session runs
  // gets exactly what Mastra gave the call (request context, writer, suspend, abort signal).
  const execute: MastraToolExecute = async (input, context) => {
    const abortSignal = context?.abortSignal instanceof AbortSignal ? context.abortSignal : undefined;
    const outcome = await step.execute(offered.name, input, { abortSignal, host: context });
    if (!outcome.ok) throw new ToolCallFailedError(outcome.error);
    return outcome.output;
  };
  (wrapper as unknown as { execute: MastraToolExecute }).execute = execute;
  return wrapper;
}
