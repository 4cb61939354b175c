// The head of a tool's name: the last word that is not an action ("acr_registry_repository_list" →
// repository, "getWeatherForecast" → forecast). Sibling tools of one service differ in it, and a
// request whose object has it asks for that tool rather than a sibling that only mentions it.

import { ACTION_FAMILIES } from './action-verbs.js';
import { normalizeWord, normalTerm, splitWords } from './tokenize.js';

/** Every action-family word: it says what a tool does, not what it acts on. */
const ACTION_WORDS: ReadonlySet<string> = new Set(Object.values(ACTION_FAMILIES).flat());

/** The term of the last word of a tool name that is not an action word nor a number, or `undefined` if none. */
export function nameHead(name: string): string | undefined {
  const words = splitWords(name);
  for (let i = words.length - 1; i >= 0; i--) {
    const word = normalizeWord(words[i]!);
    if (ACTION_WORDS.has(word) || /^\d+$/.test(word)) continue;
    const term = normalTerm(word);
    if (term !== null) return term;
  }
  return undefined;
}
