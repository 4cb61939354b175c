import { InvalidOptionError } from '../errors.js';
import { describeValue } from '../values.js';
import { codeInstructions } from './code/code-tool-text.js';
import type { MetaToolDefinition, MetaToolRole, ToolSearchMode } from './meta-tools.js';

/** The longest `instructions` text a session takes (characters): a system message, not a document. */
export const MAX_INSTRUCTIONS_LENGTH = 10_000;

/**
 * The default instructions of a mode: how tool search works, with the meta-tools' configured names.
 * `search-load` and `auto-load` are Mastra's `ToolSearchProcessor` sentences word for word (so
 * prompts and evaluations written for it keep working); `catalog` and `proxy` follow their style.
 */
export function defaultInstructions(mode: ToolSearchMode, name: (role: MetaToolRole) => string): string {
  switch (mode) {
    case 'search-load':
      return `To discover available tools, call ${name('search')} with a keyword query. To add one or more tools to the conversation, call ${name('load')} with a toolName or toolNames array. Tools must be loaded before they can be used.`;
    case 'auto-load':
      return `To discover available tools, call ${name('search')} with a keyword query. Matching tools are loaded automatically and become available on your next turn — there is no separate load step. After searching, use the tool directly.`;
    case 'catalog':
      return `To discover available tools, read the list in the description of ${name('discover')}. To add one or more of them to the conversation, call ${name('discover')} with a toolNames array. Tools must be discovered before they can be used.`;
    case 'proxy':
      return `To discover available tools, call ${name('search')} with a keyword query. To see a tool's parameters, call ${name('describe')} with its toolName. To use a tool, call ${name('call')} with its toolName and arguments; tools found by search are never called directly.`;
    case 'code':
      return codeInstructions(name('code'));
  }
}

/**
 * The instructions of a session: the `instructions` option checked (a string of at most
 * {@link MAX_INSTRUCTIONS_LENGTH} characters, `false`, or absent), or the mode's default with its
 * meta-tools' names; `undefined` for `false`. Throws {@link InvalidOptionError} (option
 * `instructions`) otherwise.
 */
export function resolveInstructions(
  option: unknown,
  mode: ToolSearchMode,
  metaTools: readonly MetaToolDefinition[],
): string | undefined {
  if (option === false) return undefined;
  if (option === undefined) {
    return defaultInstructions(mode, (role) => metaTools.find((tool) => tool.role === role)?.name ?? role);
  }
  if (typeof option !== 'string' || option.trim() === '' || option.length > MAX_INSTRUCTIONS_LENGTH) {
    throw new InvalidOptionError(
      'instructions',
      `instructions must be a non-empty string of at most ${MAX_INSTRUCTIONS_LENGTH.toLocaleString('en-US')} characters, or false for none; got ${describeOption(option)}.`,
    );
  }
  return option;
}

function describeOption(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value);
  return value.trim() === '' ? 'an empty string' : `a string of ${value.length.toLocaleString('en-US')} characters`;
}
