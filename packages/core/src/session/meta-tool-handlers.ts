// The answers of the five meta-tools (search_tools, load_tool, discover_tools, describe_tool,
// call_tool) to a call the model made at a step.
import { ToolLimitError } from '../errors.js';
import { compactText } from '../text/compact-text.js';
import type { CatalogTool } from '../types.js';
import { isRecord } from '../values.js';
import { couldNotLoad, unavailableTool } from './deferred-tools.js';
import {
  type CallFailure,
  loadLimitReached,
  nameTooLong,
  noToolsFound,
  suggestionHint,
  toolsFound,
  toolsFoundAndLoaded,
  tooManyNames,
  validationFailure,
} from './messages.js';
import type { MetaToolRole } from './meta-tools.js';
import { clipName, MODEL_INPUT_LIMITS } from './model-input-limits.js';
import type { PolicyCheck, PolicyPhase } from './policy.js';
import type { StepContext } from './step-context.js';
import type { CallAuthorization, StepRequest, ToolCallOutcome } from './step-types.js';

/** The phases of `describe_tool` (proxy mode): what it shows is for running through `call_tool`. */
export const DESCRIBE_PHASES: readonly PolicyPhase[] = ['load', 'active'];
/** The phases of `call_tool` (proxy mode): load, offer and call in one. */
const CALL_THROUGH_PHASES: readonly PolicyPhase[] = ['load', 'active', 'call'];

/** What a meta-tool's answer needs of the step the call was made at. */
export interface MetaToolCall<TTool> {
  readonly session: StepContext<TTool>;
  readonly request: StepRequest;
  /** The catalog tool ids loaded at the step: at its start and by its calls so far (loads add to it). */
  readonly loadedNow: Set<string>;
  /** The policy of this call. */
  readonly allowed: PolicyCheck<TTool>;
  /** The step's answer for a name that is no tool, or a tool the policy hides. */
  unknownTool(name: string): Promise<CallFailure>;
  /** The step's check of a tool's arguments against its schema. */
  validate(tool: CatalogTool<TTool>, input: unknown): Promise<CallAuthorization<TTool>>;
  /** Runs a tool as a direct call of it would. */
  run(tool: CatalogTool<TTool>, input: unknown): Promise<ToolCallOutcome>;
}

/** The answer of the meta-tool of `role` (named `name` for the model) to a call with `input`. */
export async function executeMetaTool<TTool>(
  call: MetaToolCall<TTool>,
  role: MetaToolRole,
  name: string,
  input: unknown,
): Promise<ToolCallOutcome> {
  if (input !== undefined && !isRecord(input))
    return validationFailure(name, `Arguments for "${name}" must be an object.`);
  const args = isRecord(input) ? input : {};
  switch (role) {
    case 'search':
      return searchTools(call, name, args);
    case 'load':
      return loadTools(call, name, args);
    case 'discover':
      return discoverTools(call, name, args);
    case 'describe':
      return describeTool(call, name, args);
    case 'call':
      return callTool(call, name, args);
  }
}

/** The `loaded` field of a meta-tool call's outcome: present when the call loaded tools. */
function loadedField(loaded: readonly string[]): { loaded?: readonly string[] } {
  return loaded.length > 0 ? { loaded } : {};
}

async function searchTools<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const { session } = call;
  const query = args.query;
  if (typeof query !== 'string' || query.trim() === '') {
    return validationFailure(name, `"${name}" needs a non-empty "query" string, e.g. {"query":"weather forecast"}.`, [
      { path: 'query', message: 'expected a non-empty string' },
    ]);
  }
  const hits = await session.search(query, call.request, call.allowed);
  const results = hits.map((hit) => ({
    name: hit.tool.toolName,
    description: compactText(hit.tool.description, session.descriptionBudget()),
    score: Math.round(hit.score * 100) / 100,
  }));
  if (results.length === 0) return { ok: true, output: { results: [], message: noToolsFound(query) } };
  if (session.mode !== 'auto-load') {
    const message = toolsFound(results.length, session.mode, (role) => session.metaToolName(role));
    return { ok: true, output: { results, message } };
  }
  const outcome = await load(
    call,
    hits.map((hit) => hit.tool.toolName),
  );
  const message = toolsFoundAndLoaded(results.length, [...outcome.loaded, ...outcome.alreadyLoaded]);
  return {
    ok: true,
    output: { results, message, loaded: outcome.loaded, alreadyLoaded: outcome.alreadyLoaded },
    ...loadedField(outcome.loaded),
  };
}

/**
 * Resolves, checks and remembers loads; shared by load_tool, auto-load search and discovery.
 * Names not found are reported cut (`clipName`).
 */
async function load<TTool>(
  call: MetaToolCall<TTool>,
  names: readonly string[],
): Promise<{
  loaded: string[];
  alreadyLoaded: string[];
  notFound: string[];
  /** Deferred tools whose resolve failed: not loaded. */
  unavailable: string[];
  tools: CatalogTool<TTool>[];
  limitReached?: string;
}> {
  const { session, request, loadedNow } = call;
  const loaded: string[] = [];
  const alreadyLoaded: string[] = [];
  const notFound: string[] = [];
  const unavailable: string[] = [];
  const tools: CatalogTool<TTool>[] = [];
  const newIds: string[] = [];
  for (const name of new Set(names)) {
    const tool = session.resolve(name);
    if (!tool || session.isDirect(tool) || !(await call.allowed(tool, ['load']))) {
      notFound.push(clipName(name));
      continue;
    }
    const pinnedOrOffered = tool.pinned || loadedNow.has(tool.id);
    if (pinnedOrOffered) {
      tools.push(tool);
      alreadyLoaded.push(tool.toolName);
      continue;
    }
    loadedNow.add(tool.id); // (before resolving: a parallel load of it sees it loaded)
    const ready = await session.ready(tool, request);
    if (!ready) {
      loadedNow.delete(tool.id);
      unavailable.push(tool.toolName);
      continue;
    }
    tools.push(ready);
    newIds.push(tool.id);
    loaded.push(tool.toolName);
  }
  try {
    await session.remember(request, newIds, loadedNow.size);
  } catch (error) {
    if (!ToolLimitError.isInstance(error)) throw error;
    // The store refused: nothing of this call was loaded, and the model is told why.
    for (const id of newIds) loadedNow.delete(id);
    const refused = new Set(newIds);
    return {
      loaded: [],
      alreadyLoaded,
      notFound,
      unavailable,
      tools: tools.filter((tool) => !refused.has(tool.id)),
      limitReached: loadLimitReached(error.limit, loaded),
    };
  }
  session.emit({
    type: 'load',
    threadId: request.threadId,
    resourceId: request.resourceId,
    requested: [...names],
    loaded: newIds,
    alreadyLoaded,
    notFound,
  });
  return { loaded, alreadyLoaded, notFound, unavailable, tools };
}

/** The tool names of a `load_tool` (`allowSingle`: `toolName` too) or `discover_tools` call, or the error. */
function readNames<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
  allowSingle: boolean,
): string[] | CallFailure {
  const searchTool = call.session.metaToolName('search');
  const names: string[] = [];
  if (args.toolNames !== undefined) {
    if (!Array.isArray(args.toolNames)) return notNames();
    // Counted before anything else is done with the list, however long it is.
    if (args.toolNames.length > MODEL_INPUT_LIMITS.namesPerCall) return tooManyNames(name, args.toolNames.length);
    for (const [index, item] of (args.toolNames as unknown[]).entries()) {
      if (typeof item !== 'string') return notNames();
      if (item.length > MODEL_INPUT_LIMITS.nameLength)
        return nameTooLong(name, `toolNames[${index}]`, item, searchTool);
      names.push(item);
    }
  }
  if (allowSingle && args.toolName !== undefined) {
    if (typeof args.toolName !== 'string') {
      return validationFailure(name, `"toolName" must be a string.`, [
        { path: 'toolName', message: 'expected a string' },
      ]);
    }
    if (args.toolName.length > MODEL_INPUT_LIMITS.nameLength) {
      return nameTooLong(name, 'toolName', args.toolName, searchTool);
    }
    names.push(args.toolName);
  }
  const clean = [...new Set(names.map((item) => item.trim()).filter((item) => item !== ''))];
  if (clean.length === 0) {
    return validationFailure(
      name,
      allowSingle
        ? `You must provide either toolName (string) or toolNames (array) to ${name}.`
        : `"toolNames" must list at least one tool name.`,
    );
  }
  if (clean.length > MODEL_INPUT_LIMITS.namesPerCall) return tooManyNames(name, clean.length);
  return clean;

  function notNames() {
    return validationFailure(name, `"toolNames" must be an array of tool names.`, [
      { path: 'toolNames', message: 'expected an array of strings' },
    ]);
  }
}

async function loadTools<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const names = readNames(call, name, args, true);
  if (!Array.isArray(names)) return names;
  const { loaded, alreadyLoaded, notFound, unavailable, limitReached } = await load(call, names);
  const parts: string[] = [];
  if (limitReached) parts.push(limitReached);
  if (unavailable.length > 0) parts.push(couldNotLoad(unavailable));
  if (loaded.length > 0) parts.push(`Loaded: ${loaded.join(', ')}: available from your next step`);
  if (alreadyLoaded.length > 0) parts.push(`Already loaded: ${alreadyLoaded.join(', ')}`);
  if (notFound.length > 0) {
    const suggestions = names.length === 1 ? await call.session.suggest(names[0]!, call.allowed) : [];
    parts.push(`Not found: ${notFound.join(', ')}.${suggestionHint(suggestions, call.session.metaToolName('search'))}`);
  }
  const output: Record<string, unknown> = {
    success: notFound.length === 0 && unavailable.length === 0 && !limitReached,
    message: parts.join(' | '),
    loadedCount: loaded.length,
    loaded,
    alreadyLoaded,
    notFound,
  };
  if (names.length === 1) output.toolName = loaded[0] ?? alreadyLoaded[0] ?? clipName(names[0]!);
  return { ok: true, output, ...loadedField(loaded) };
}

async function discoverTools<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const names = readNames(call, name, args, false);
  if (!Array.isArray(names)) return names;
  const { loaded, alreadyLoaded, notFound, tools } = await load(call, names);
  const parts = [`Discovered ${tools.length} tool(s); call them from your next step.`];
  if (notFound.length > 0) parts.push(`Not found: ${notFound.join(', ')}.`);
  return {
    ok: true,
    output: {
      tools: tools.map((tool) => ({
        name: tool.toolName,
        description: compactText(tool.description, 0),
        inputSchema: tool.jsonSchema,
      })),
      message: parts.join(' '),
      loaded,
      alreadyLoaded,
      notFound,
    },
    ...loadedField(loaded),
  };
}

/** The `toolName` argument of `describe_tool` and `call_tool`, or the tool error to answer. */
function readToolName<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
  usage: string,
): string | CallFailure {
  if (typeof args.toolName !== 'string' || args.toolName === '') {
    return validationFailure(name, `"${name}" needs ${usage}.`, [{ path: 'toolName', message: 'expected a string' }]);
  }
  if (args.toolName.length > MODEL_INPUT_LIMITS.nameLength) {
    return nameTooLong(name, 'toolName', args.toolName, call.session.metaToolName('search'));
  }
  return args.toolName;
}

async function describeTool<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const toolName = readToolName(call, name, args, 'a "toolName" string');
  if (typeof toolName !== 'string') return toolName;
  const listed = call.session.resolve(toolName);
  if (!listed || !(await call.allowed(listed, DESCRIBE_PHASES))) return call.unknownTool(toolName);
  const tool = await call.session.ready(listed, call.request);
  if (!tool) return unavailableTool(listed.toolName);
  return {
    ok: true,
    output: { name: tool.toolName, description: compactText(tool.description, 0), inputSchema: tool.jsonSchema },
  };
}

async function callTool<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const toolName = readToolName(call, name, args, 'a "toolName" string and an "arguments" object');
  if (typeof toolName !== 'string') return toolName;
  const toolArgs = args.arguments ?? {};
  if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs)) {
    return validationFailure(name, `"arguments" must be an object.`, [
      { path: 'arguments', message: 'expected an object' },
    ]);
  }
  const listed = call.session.resolve(toolName);
  if (!listed || !(await call.allowed(listed, CALL_THROUGH_PHASES, toolArgs))) return call.unknownTool(toolName);
  const tool = await call.session.ready(listed, call.request);
  if (!tool) return unavailableTool(listed.toolName);
  const validated = await call.validate(tool, toolArgs);
  if (!validated.ok) return validated;
  return call.run(tool, validated.input);
}
