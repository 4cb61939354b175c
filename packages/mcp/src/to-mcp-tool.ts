import { type CallToolResult, CallToolResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { MetaToolRole, OfferedTool, ToolCallOutcome } from '@toolscout/core';
import { InvalidArgumentError } from '@toolscout/core/errors';
import { describeValue, isRecord } from '@toolscout/core/internal';

// The converters of the MCP wrapper: an offered tool to an MCP tool definition, a call's outcome to
// an MCP tool result.

/** Hints for the meta-tools: searching and describing read nothing but the catalog. */
const META_ANNOTATIONS: Partial<Record<MetaToolRole, Tool['annotations']>> = {
  search: { readOnlyHint: true, openWorldHint: false },
  describe: { readOnlyHint: true, openWorldHint: false },
  load: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  discover: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** The MCP tool definition of an offered tool: name, title, description, schemas and annotations. */
export function toMcpTool(offered: OfferedTool): Tool {
  if (!isRecord(offered) || typeof offered.name !== 'string') {
    const got = describeValue(offered);
    throw new InvalidArgumentError('offered', `toMcpTool takes a tool a step offers (step.tools[i]); got ${got}.`);
  }
  const tool = offered.tool;
  const title = tool?.metadata?.title ?? tool?.annotations?.title;
  const definition: Tool = {
    name: offered.name,
    description: offered.description,
    inputSchema: offered.inputSchema as Tool['inputSchema'],
  };
  if (typeof title === 'string') definition.title = title;
  // MCP output schemas describe an object; anything else would make clients reject the whole list.
  if (tool?.outputSchema?.type === 'object') definition.outputSchema = tool.outputSchema as Tool['outputSchema'];
  const annotations = tool ? tool.annotations : offered.role && META_ANNOTATIONS[offered.role];
  if (annotations) definition.annotations = annotations;
  return definition;
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return isRecord(value) && Array.isArray(value.content) && CallToolResultSchema.safeParse(value).success;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The `tools/call` result for a session's outcome: a tool's own MCP result as it came (content,
 * `structuredContent`, `isError`), other outputs as JSON text (and `structuredContent` for objects),
 * and the model's mistakes as `isError: true` results carrying core's message.
 */
export function toCallToolResult(outcome: ToolCallOutcome): CallToolResult {
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error.message }], isError: true };
  const output = outcome.output;
  if (outcome.toolId !== undefined && isCallToolResult(output)) return output;
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  const result: CallToolResult = { content: [{ type: 'text', text: jsonText(output) }] };
  if (isRecord(output)) result.structuredContent = output;
  return result;
}
