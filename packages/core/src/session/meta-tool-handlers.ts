// The answers of the meta-tools (search_tools, load_tool, discover_tools, describe_tool,
// call_tool; run_tool_code's is in code/code-runner.ts) to a call the model made at a step.
import { keptName } from '../catalog/aliases.js';
import { ToolLimitError } from '../errors.js';
import { formatReasons } from '../index/explain.js';
import { compactText } from '../text/compact-text.js';
import type { CatalogTool } from '../types.js';
import { isRecord } from '../values.js';
import { runToolCode } from './code/code-runner.js';
import { couldNotLoad, unavailableTool } from './deferred-tools.js';
import { hostToolFor, hostToolNames } from './host-tools.js';
import {
  type CallFailure,
  EMPTY_TOOL_NAMES,
  loadLimitReached,
  loadSummary,
  NO_TOOL_NAMES,
  nameTooLong,
  noToolsFound,
  toolAlreadyLoaded,
  toolLoaded,
  toolNotFound,
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
  /** Of the tools loaded at the step, the name each is offered under (its alias, or its tool name), by id. */
  readonly loadedAs: Map<string, string>;
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
    case 'code':
      return runToolCode(call, call.session.code!, name, args);
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
  if (typeof query !== 'string') {
    return validationFailure(name, `"${name}" needs a "query" string, e.g. {"query":"weather forecast"}.`, [
      { path: 'query', message: 'expected a string' },
    ]);
  }
  // An empty query matches nothing, as in Mastra: an answer that says so, not an error.
  const hits = query.trim() === '' ? [] : await session.search(query, call.request, call.allowed);
  // (hits have reasons only when the session's `search.explain` is on: then each result says why)
  const results = hits.map((hit) => ({
    name: hit.tool.toolName,
    description: compactText(hit.tool.description, session.descriptionBudget()),
    score: Math.round(hit.score * 100) / 100,
    ...(hit.reasons === undefined ? {} : { why: formatReasons(hit.reasons) }),
  }));
  if (results.length === 0) return { ok: true, output: { results: [], message: noToolsFound(query) } };
  if (session.mode !== 'auto-load') {
    const message = toolsFound(results.length, session.mode, (role) => session.metaToolName(role));
    return { ok: true, output: { results, message } };
  }
  return autoLoad(call, results);
}

/** An auto-load search's answer: its hits loaded, in Mastra's words. */
async function autoLoad<TTool>(
  call: MetaToolCall<TTool>,
  results: readonly { name: string }[],
): Promise<ToolCallOutcome> {
  const outcome = await load(
    call,
    results.map((result) => result.name),
  );
  const available = [...outcome.loaded, ...outcome.alreadyLoaded];
  const found = toolsFoundAndLoaded(results.length, available, outcome.alreadyLoaded.length > 0);
  const message = outcome.limitReached ? `${outcome.limitReached} ${found}` : found;
  // Mastra's result lists no loads: every hit is loaded. Where some are not (refused by the policy or
  // the limit, or offered under another name), `loaded` lists the hits that are.
  const allLoaded = available.length === results.length && results.every((result) => available.includes(result.name));
  return {
    ok: true,
    output: allLoaded ? { results, message } : { results, message, loaded: available },
    ...loadedField(outcome.loaded),
  };
}

/** What a load did: names as the model is offered them (`notFound`: as asked, cut). */
interface LoadOutcome<TTool> {
  loaded: string[];
  alreadyLoaded: string[];
  notFound: string[];
  /** Deferred tools whose resolve failed: not loaded. */
  unavailable: string[];
  /** The catalog tools that are loaded now (newly or before). */
  tools: CatalogTool<TTool>[];
  /** Why nothing of the call was loaded: the thread has too many tools loaded. */
  limitReached?: string;
}

/**
 * Resolves, checks and remembers loads; shared by load_tool, auto-load search and discovery. A name
 * the host offers itself (`hostTools`), or a direct tool's, is already available; a tool loaded
 * under another name is already loaded under that one (one tool, one offer).
 */
async function load<TTool>(call: MetaToolCall<TTool>, names: readonly string[]): Promise<LoadOutcome<TTool>> {
  const { session, request, loadedNow, loadedAs } = call;
  const outcome: LoadOutcome<TTool> = { loaded: [], alreadyLoaded: [], notFound: [], unavailable: [], tools: [] };
  const hostNames = hostToolNames(request);
  const newIds: string[] = [];
  const kept: string[] = [];
  for (const name of new Set(names)) {
    const tool = session.resolve(name);
    const available = availableOutsideCatalog(session, name, tool, hostNames);
    if (available !== undefined) {
      outcome.alreadyLoaded.push(available);
      continue;
    }
    if (!tool || !(await call.allowed(tool, ['load']))) {
      outcome.notFound.push(clipName(name));
      continue;
    }
    if (tool.pinned || loadedNow.has(tool.id)) {
      outcome.tools.push(tool);
      outcome.alreadyLoaded.push(loadedAs.get(tool.id) ?? tool.aliasOf ?? tool.toolName);
      continue;
    }
    loadedNow.add(tool.id); // (before resolving: a parallel load of it sees it loaded)
    loadedAs.set(tool.id, tool.toolName);
    const ready = await session.ready(tool, request);
    if (!ready) {
      loadedNow.delete(tool.id);
      loadedAs.delete(tool.id);
      outcome.unavailable.push(tool.toolName);
      continue;
    }
    outcome.tools.push(ready);
    newIds.push(tool.id);
    kept.push(keptName(tool));
    outcome.loaded.push(tool.toolName);
  }
  try {
    await session.remember(request, kept, loadedNow.size);
  } catch (error) {
    if (!ToolLimitError.isInstance(error)) throw error;
    // The store refused: nothing of this call was loaded, and the model is told why.
    for (const id of newIds) {
      loadedNow.delete(id);
      loadedAs.delete(id);
    }
    const refused = new Set(newIds);
    const limitReached = loadLimitReached(error.limit, outcome.loaded);
    return { ...outcome, loaded: [], tools: outcome.tools.filter((tool) => !refused.has(tool.id)), limitReached };
  }
  session.emit({
    type: 'load',
    threadId: request.threadId,
    resourceId: request.resourceId,
    requested: [...names],
    loaded: newIds,
    alreadyLoaded: outcome.alreadyLoaded,
    notFound: outcome.notFound,
  });
  return outcome;
}

/**
 * The name under which the model has a tool it asks to load without the catalog's help: the host's
 * own tool of that name (or of the tool's name or alias), or the session's direct tool.
 */
function availableOutsideCatalog<TTool>(
  session: StepContext<TTool>,
  name: string,
  tool: CatalogTool<TTool> | undefined,
  hostNames: ReadonlySet<string>,
): string | undefined {
  if (hostNames.has(name)) return name;
  if (tool === undefined) return undefined;
  return session.isDirect(tool) ? tool.toolName : hostToolFor(tool, hostNames);
}

/** A `load_tool` answer that loads nothing: `{ success: false, message }`, a result (Mastra's). */
function loadRefused(message: string): ToolCallOutcome {
  return { ok: true, output: { success: false, message } };
}

/**
 * The tool names of a `load_tool` (`allowSingle`: `toolName` too) or `discover_tools` call, or the
 * answer: a tool error for arguments of the wrong type or size, a `load_tool` result for no names.
 */
function readNames<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
  allowSingle: boolean,
): string[] | ToolCallOutcome {
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
    if (allowSingle) return loadRefused(args.toolNames !== undefined ? EMPTY_TOOL_NAMES : NO_TOOL_NAMES);
    return validationFailure(name, `"toolNames" must list at least one tool name.`);
  }
  if (clean.length > MODEL_INPUT_LIMITS.namesPerCall) return tooManyNames(name, clean.length);
  return clean;

  function notNames() {
    return validationFailure(name, `"toolNames" must be an array of tool names.`, [
      { path: 'toolNames', message: 'expected an array of strings' },
    ]);
  }
}

/**
 * `load_tool`, in Mastra's two forms: `{ success, message, toolName }` for a call with `toolName`
 * only, `{ success, message, loadedCount, loaded?, notFound?, alreadyLoaded? }` (empty lists left
 * out) for one with `toolNames`.
 */
async function loadTools<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const names = readNames(call, name, args, true);
  if (!Array.isArray(names)) return names;
  const outcome = await load(call, names);
  const { loaded, alreadyLoaded, notFound, unavailable, limitReached } = outcome;
  const searchTool = call.session.metaToolName('search');
  const suggestions =
    notFound.length > 0 && names.length === 1 ? await call.session.suggest(names[0]!, call.allowed) : [];
  if (args.toolNames === undefined) {
    const asked = clipName(names[0]!);
    let output: { success: boolean; message: string; toolName: string };
    if (limitReached) output = { success: false, message: limitReached, toolName: asked };
    else if (loaded[0]) output = { success: true, message: toolLoaded(loaded[0]), toolName: loaded[0] };
    else if (alreadyLoaded[0])
      output = { success: true, message: toolAlreadyLoaded(asked, alreadyLoaded[0]), toolName: alreadyLoaded[0] };
    else if (unavailable[0]) output = { success: false, message: couldNotLoad(unavailable), toolName: unavailable[0] };
    else output = { success: false, message: toolNotFound(asked, suggestions, searchTool), toolName: asked };
    return { ok: true, output, ...loadedField(loaded) };
  }
  const summary = loadSummary({ loaded, alreadyLoaded, notFound, suggestions });
  const output = {
    success: notFound.length === 0 && unavailable.length === 0 && !limitReached,
    message: [limitReached, unavailable.length > 0 && couldNotLoad(unavailable), summary].filter(Boolean).join(' | '),
    loadedCount: loaded.length,
    ...nonEmpty({ loaded, notFound, alreadyLoaded, unavailable }),
  };
  return { ok: true, output, ...loadedField(loaded) };
}

/** The lists that have names (Mastra leaves empty ones out, so `if (result.notFound)` means some). */
function nonEmpty(lists: Record<string, readonly string[]>): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(lists).filter(([, names]) => names.length > 0));
}

async function discoverTools<TTool>(
  call: MetaToolCall<TTool>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const names = readNames(call, name, args, false);
  if (!Array.isArray(names)) return names;
  const { loaded, alreadyLoaded, notFound, unavailable, tools } = await load(call, names);
  const parts = [`Discovered ${tools.length} tool(s) — available on your next turn`];
  if (unavailable.length > 0) parts.push(couldNotLoad(unavailable));
  if (notFound.length > 0) parts.push(`Not found: ${notFound.join(', ')}`);
  return {
    ok: true,
    output: {
      tools: tools.map((tool) => ({
        name: tool.toolName,
        description: compactText(tool.description, 0),
        inputSchema: tool.jsonSchema,
      })),
      message: parts.join(' | '),
      ...nonEmpty({ loaded, notFound, alreadyLoaded, unavailable }),
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
