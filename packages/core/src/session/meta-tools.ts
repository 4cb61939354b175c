import { InvalidOptionError } from '../errors.js';
import type { JsonSchema } from '../types.js';
import { CODE_TOOL_DESCRIPTION } from './code/code-tool-text.js';

/**
 * How the model reaches the catalog:
 * - `search-load` (default): `search_tools` returns compact hits (name, short description, score, no
 *   schema); `load_tool` takes one name or a list; loaded tools are offered from the next step. Best
 *   for large catalogs on hosts that can change the offered tools between steps.
 * - `auto-load`: `search_tools` loads its hits itself; there is no `load_tool`. One call fewer per
 *   tool, at the price of loading hits the model may not need. Good with a small `limit`.
 * - `catalog`: the discovery tool's description lists the catalog's tool names (optionally with a
 *   first sentence each); the model discovers tools by name and gets their full description and
 *   schema. The discovery tool disappears once every tool is discovered, and does not exist when no
 *   tool is lazy. Best for catalogs of tens of tools, where a listing is cheaper than a search.
 * - `proxy`: `search_tools`, `describe_tool` and `call_tool`; nothing is ever added to the offered
 *   tools, `call_tool` validates arguments against the tool's schema and runs it under the same
 *   policy. For hosts that cannot change tools mid-run (MCP clients that ignore `list_changed`).
 * - `code`: one tool, `run_tool_code`, whose input is the body of an async JavaScript function run in
 *   a sandbox with `tools.search`, `tools.describe` and `tools.call` (each a call through the
 *   session: policy, validation, telemetry, the tool's own `execute`). A request that needs several
 *   tools takes one model step instead of one per search, load and call. Needs `code.sandbox`
 *   (`createQuickJsSandbox()` from `@toolscout/core/code-mode`); see `CodeModeOptions`.
 */
export type ToolSearchMode = 'search-load' | 'auto-load' | 'catalog' | 'proxy' | 'code';

export const TOOL_SEARCH_MODES: readonly ToolSearchMode[] = ['search-load', 'auto-load', 'catalog', 'proxy', 'code'];

/** The role a meta-tool plays. */
export type MetaToolRole = 'search' | 'load' | 'discover' | 'describe' | 'call' | 'code';

/** A meta-tool's name and description, as configured. */
export interface MetaToolConfig {
  /** The name the model sees; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** The description the model sees. */
  description?: string;
}

export type MetaToolsConfig = Partial<Record<MetaToolRole, MetaToolConfig>>;

/** A meta-tool definition, as offered to the model. */
export interface MetaToolDefinition {
  role: MetaToolRole;
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export const DEFAULT_META_TOOL_NAMES: Readonly<Record<MetaToolRole, string>> = {
  search: 'search_tools',
  load: 'load_tool',
  discover: 'discover_tools',
  describe: 'describe_tool',
  call: 'call_tool',
  code: 'run_tool_code',
};

function defaultDescription(role: MetaToolRole, mode: ToolSearchMode, names: Record<MetaToolRole, string>): string {
  switch (role) {
    case 'search':
      if (mode === 'auto-load') {
        return 'Search for available tools by keyword when you need a capability you do not have. Matching tools are loaded automatically and can be called from your next step.';
      }
      if (mode === 'proxy') {
        return `Search for available tools by keyword. Returns matching tool names and short descriptions. Use ${names.describe} to see a tool's parameters, then ${names.call} to run it.`;
      }
      return `Search for available tools by keyword when you need a capability you do not have. Returns matching tool names and short descriptions. Then call ${names.load} to make a tool available.`;
    case 'load':
      return `Load one or more tools found with ${names.search}, by exact name (toolName, or toolNames for several). Loaded tools can be called from your next step.`;
    case 'discover':
      return 'Get the full description and parameters of tools by exact name; discovered tools can be called from your next step.';
    case 'describe':
      return 'Get the full description and input schema of a tool by exact name.';
    case 'call':
      return `Run a tool by exact name with its arguments (see ${names.describe} for its parameters).`;
    case 'code':
      return CODE_TOOL_DESCRIPTION;
  }
}

const SCHEMAS: Record<MetaToolRole, JsonSchema> = {
  search: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Keywords for the capability you need, e.g. "weather forecast"' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  load: {
    type: 'object',
    properties: {
      toolName: { type: 'string', description: 'The exact name of a tool to load' },
      toolNames: { type: 'array', items: { type: 'string' }, description: 'Several exact tool names to load at once' },
    },
    additionalProperties: false,
  },
  discover: {
    type: 'object',
    properties: {
      toolNames: { type: 'array', items: { type: 'string' }, description: 'Exact tool names from the list' },
    },
    required: ['toolNames'],
    additionalProperties: false,
  },
  describe: {
    type: 'object',
    properties: { toolName: { type: 'string', description: 'The exact name of the tool' } },
    required: ['toolName'],
    additionalProperties: false,
  },
  call: {
    type: 'object',
    properties: {
      toolName: { type: 'string', description: 'The exact name of the tool to run' },
      arguments: { type: 'object', description: "The tool's arguments, as its input schema describes them" },
    },
    required: ['toolName'],
    additionalProperties: false,
  },
  code: {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'The body of an async JavaScript function; `return` its result' },
    },
    required: ['code'],
    additionalProperties: false,
  },
};

/** The meta-tool roles each mode offers, in the order they are offered. */
export const MODE_ROLES: Readonly<Record<ToolSearchMode, readonly MetaToolRole[]>> = {
  'search-load': ['search', 'load'],
  'auto-load': ['search'],
  catalog: ['discover'],
  proxy: ['search', 'describe', 'call'],
  code: ['code'],
};

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Resolves the names and definitions of a mode's meta-tools, validating configured names. */
export function resolveMetaTools(mode: ToolSearchMode, config: MetaToolsConfig = {}): MetaToolDefinition[] {
  const names = { ...DEFAULT_META_TOOL_NAMES };
  for (const role of Object.keys(names) as MetaToolRole[]) {
    const name = config[role]?.name;
    if (name === undefined) continue;
    if (typeof name !== 'string' || !VALID_NAME.test(name)) {
      throw new InvalidOptionError(
        `metaTools.${role}.name`,
        `metaTools.${role}.name must match ^[a-zA-Z0-9_-]{1,64}$ (a name every provider accepts); got ${JSON.stringify(name)}.`,
      );
    }
    names[role] = name;
  }
  const roles = MODE_ROLES[mode];
  const seen = new Set<string>();
  for (const role of roles) {
    if (seen.has(names[role]))
      throw new InvalidOptionError('metaTools', `Two meta-tools are both named "${names[role]}".`);
    seen.add(names[role]);
  }
  return roles.map((role) => ({
    role,
    name: names[role],
    description: config[role]?.description ?? defaultDescription(role, mode, names),
    inputSchema: SCHEMAS[role],
  }));
}
