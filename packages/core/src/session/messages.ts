// What the model reads when a call goes wrong or a meta-tool answers: every sentence the session
// writes for the model, in one place, so that their words stay alike across tools and modes.
import { compactText } from '../text/compact-text.js';
import type { CatalogTool } from '../types.js';
import type { MetaToolRole, ToolSearchMode } from './meta-tools.js';
import { clipName, MODEL_INPUT_LIMITS, NAME_LENGTH_RULE, nameStart } from './model-input-limits.js';
import type { ToolCallError } from './step-types.js';

/** A refused call: the error the model is answered with. */
export type CallFailure = { ok: false; error: ToolCallError };

/** Argument issues quoted in a tool error; the rest are counted. */
const MAX_ISSUES_QUOTED = 10;

/** An `invalid-arguments` answer. */
export function validationFailure(
  toolName: string,
  message: string,
  issues: { path: string; message: string }[] = [],
): CallFailure {
  return { ok: false, error: { code: 'invalid-arguments', toolName, message, issues } };
}

/**
 * The `invalid-arguments` answer for input that does not match a tool's schema. Paths are the
 * model's own keys: a bounded number of issues is quoted, each cut.
 */
export function invalidArguments(toolName: string, found: readonly { path: string; message: string }[]): CallFailure {
  const issues = found.slice(0, MAX_ISSUES_QUOTED).map((issue) => ({
    path: clipName(issue.path, 100),
    message: compactText(issue.message, 300),
  }));
  // Validators' messages may end with a full stop ("Expected \"string\"."): the issues are parts of
  // one sentence, joined by semicolons, and one full stop ends it.
  const quoted = issues.map((issue) => `${issue.path || '(input)'}: ${issue.message.replace(/[.\s]+$/, '')}`);
  const more = found.length - issues.length;
  if (more > 0) quoted.push(`and ${more} more issue(s)`);
  const detail = quoted.join('; ');
  return validationFailure(
    toolName,
    `Invalid arguments for tool "${toolName}": ${detail}. Fix these fields and call it again.`,
    issues,
  );
}

/** Where to find tool names, for an answer that names none: ` Use search_tools to find ...`. */
export function findHint(searchTool: string | undefined): string {
  return searchTool ? ` Use ${searchTool} to find available tools.` : '';
}

/** ` Did you mean: a, b?`, or the hint where to find tools when there is nothing to suggest. */
export function suggestionHint(suggestions: readonly string[], searchTool: string | undefined): string {
  return suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : findHint(searchTool);
}

/** The answer for a name that is no tool (or one the policy hides); `toolName` is already cut. */
export function unknownTool(toolName: string, tooLong: boolean, suggestions: string[], hint: string): CallFailure {
  const message = `Tool "${toolName}" is not available${tooLong ? `: ${NAME_LENGTH_RULE}` : ''}.${hint}`;
  return { ok: false, error: { code: 'unknown-tool', toolName, suggestions, message } };
}

/**
 * The answer for a call of a tool the step offers but the host left out of the model's tools at this
 * step (the user's own narrowing, e.g. the AI SDK's `activeTools`).
 */
export function notAtThisStep(toolName: string): CallFailure {
  const message = `Tool "${toolName}" is not available at this step. Call one of the tools you were given.`;
  return { ok: false, error: { code: 'unknown-tool', toolName, suggestions: [], message } };
}

/** The answer for a name argument (at `path` of meta-tool `meta`) longer than any tool name. */
export function nameTooLong(meta: string, path: string, name: string, searchTool: string | undefined): CallFailure {
  return validationFailure(
    meta,
    `"${path}" is not a tool name: ${NAME_LENGTH_RULE}; got "${clipName(name, 50)}".${findHint(searchTool)}`,
    [{ path, message: `expected at most ${MODEL_INPUT_LIMITS.nameLength} characters` }],
  );
}

/** The answer for a call of a catalog tool that is not offered, with the call that gets it offered. */
export function notLoaded(
  tool: CatalogTool<unknown>,
  name: string,
  mode: ToolSearchMode,
  meta: (role: MetaToolRole) => string | undefined,
): CallFailure {
  const quoted = JSON.stringify(tool.toolName);
  let fix: string;
  switch (mode) {
    case 'proxy':
      fix = `Call ${meta('call')} with {"toolName":${quoted},"arguments":{...}} to run it.`;
      break;
    case 'catalog':
      fix = `Call ${meta('discover')} with {"toolNames":[${quoted}]} first, then call it again.`;
      break;
    case 'auto-load':
      fix = `Call ${meta('search')} with {"query":${quoted}} to load it, then call it again.`;
      break;
    case 'code':
      fix = `Run it from ${meta('code')} with await tools.call(${quoted}, {...}).`;
      break;
    default:
      fix = `Call ${meta('load')} with {"toolName":${quoted}} first, then call it again.`;
  }
  return {
    ok: false,
    error: {
      code: 'not-loaded',
      toolName: name,
      suggestions: [tool.toolName],
      message: `Tool "${tool.toolName}" is not loaded. ${fix}`,
    },
  };
}

/** The answer for a call of a tool that has no executor. */
export function notExecutable(tool: CatalogTool<unknown>): CallFailure {
  return {
    ok: false,
    error: {
      code: 'not-executable',
      toolName: tool.toolName,
      message: `Tool "${tool.toolName}" cannot be run here (it has no executor).`,
    },
  };
}

/** The answer for a tool whose `execute` threw. */
export function executionFailed(tool: CatalogTool<unknown>, cause: unknown): CallFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return {
    ok: false,
    error: {
      code: 'execution-failed',
      toolName: tool.toolName,
      message: `Tool "${tool.toolName}" failed: ${reason}`,
      cause,
    },
  };
}

/** `search_tools`' message when nothing matched. */
export function noToolsFound(query: string): string {
  return `No tools found matching "${compactText(nameStart(query, MODEL_INPUT_LIMITS.queryLength), 100)}". Try different keywords.`;
}

/** `search_tools`' message for hits (not auto-loaded): what to do with them in this mode. */
export function toolsFound(
  count: number,
  mode: ToolSearchMode,
  meta: (role: MetaToolRole) => string | undefined,
): string {
  const next =
    mode === 'proxy'
      ? `Use ${meta('describe')} to see a tool's parameters and ${meta('call')} to run it.`
      : `Use ${meta('load')} with an exact toolName or a toolNames array to make them available.`;
  return `Found ${count} tool(s). ${next}`;
}

/**
 * `search_tools`' message in `auto-load` mode (Mastra's words), for the hits now loaded (`loaded`,
 * newly or before) of `found` hits, `some` of them loaded before.
 */
export function toolsFoundAndLoaded(found: number, loaded: readonly string[], someAlreadyLoaded: boolean): string {
  if (loaded.length === 0) return `Found ${found} tool(s), but none can be loaded.`;
  const already = someAlreadyLoaded ? ' Some were already loaded.' : '';
  return `Found and loaded ${loaded.length} tool(s): ${loaded.join(', ')}. They are available on your next turn — call them directly.${already}`;
}

/** `load_tool`'s answer (single form, `toolName` only) for a tool it loaded now. */
export function toolLoaded(name: string): string {
  return `Tool "${name}" loaded successfully. It will be available on your next turn.`;
}

/**
 * `load_tool`'s answer (single form) for a tool that is already offered: loaded before, pinned, or
 * given by the host; `offeredAs` is the name it is offered under, when the model asked by another.
 */
export function toolAlreadyLoaded(name: string, offeredAs: string): string {
  const as = offeredAs === name ? '' : ` as "${offeredAs}"`;
  return `Tool "${name}" is already loaded and available${as}.`;
}

/** `load_tool`'s answer (single form) for a name that is no tool the model may load. */
export function toolNotFound(name: string, suggestions: readonly string[], searchTool: string | undefined): string {
  return `Tool "${name}" not found.${suggestionHint(suggestions, searchTool)}`;
}

/** `load_tool`'s answer (list form): Mastra's parts, joined by ` | `, for each list that has names. */
export function loadSummary(lists: {
  loaded: readonly string[];
  alreadyLoaded: readonly string[];
  notFound: readonly string[];
  suggestions: readonly string[];
}): string {
  const parts: string[] = [];
  if (lists.loaded.length > 0) parts.push(`Loaded: ${lists.loaded.join(', ')} — available on your next turn`);
  if (lists.alreadyLoaded.length > 0) parts.push(`Already loaded: ${lists.alreadyLoaded.join(', ')}`);
  if (lists.notFound.length > 0) {
    const hint = lists.suggestions.length > 0 ? `. Did you mean: ${lists.suggestions.join(', ')}?` : '';
    parts.push(`Not found: ${lists.notFound.join(', ')}${hint}`);
  }
  return parts.join(' | ');
}

/** `load_tool`'s answer to `{ toolNames: [] }` (Mastra's words). */
export const EMPTY_TOOL_NAMES = 'toolNames array must not be empty.';

/** `load_tool`'s answer to a call with neither `toolName` nor `toolNames` (Mastra's words). */
export const NO_TOOL_NAMES = 'You must provide either toolName (string) or toolNames (array) to load.';

/** Why the tools of a load were refused: the thread has too many loaded. */
export function loadLimitReached(limit: number, refused: readonly string[]): string {
  return `Too many tools are loaded in this conversation (limit ${limit}); ${refused.join(', ')} could not be loaded.`;
}

/** The answer for more tool names in one call than a call may have. */
export function tooManyNames(meta: string, count: number): CallFailure {
  const { namesPerCall } = MODEL_INPUT_LIMITS;
  return validationFailure(
    meta,
    `At most ${namesPerCall} tool names per call; got ${count}. Ask for the ones you need now, the rest in another call.`,
    [{ path: 'toolNames', message: `expected at most ${namesPerCall} names` }],
  );
}

/** The catalog-mode listing of tools (`- name: summary` lines) in the discovery tool's description. */
export function discoveryListing(lines: readonly string[]): string {
  return `Available tools:\n${lines.join('\n')}`;
}
