/** The words of code mode the model reads: the tool's API contract and the mode's instructions. */

/** `run_tool_code`'s description: the sandbox's whole API, in a few lines. */
export const CODE_TOOL_DESCRIPTION = `Run a short JavaScript program (the body of an async function) that finds and uses tools. In scope:
- await tools.search(query, { limit }) → [{ id, description, score }], best first
- await tools.describe(id) → { id, description, inputSchema }
- await tools.call(id, args) → the tool's result; throws an Error (with .code) when the call is refused or fails
- console.log(...values) → lines returned with the result
\`return\` a JSON value. No other APIs (no fetch, require, import, timers); time, memory and tool calls are limited.`;

/** The default instructions of code mode, naming its tool. */
export function codeInstructions(toolName: string): string {
  return `To find and use tools, call ${toolName} with a short JavaScript program: search with tools.search, read a tool's parameters with tools.describe, run it with tools.call, and return what you need. One program can search, call several tools and combine their results.`;
}
