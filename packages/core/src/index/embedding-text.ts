import type { CatalogTool } from '../types.js';

/** The most characters of a description's first sentence that {@link embeddingText} keeps. */
const MAX_PURPOSE_CHARS = 300;

/** Words that end in a period without ending a sentence ("e.g. DNA", "vs. Azure"). */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'eg', 'ie', 'approx', 'incl', 'no', 'mr', 'dr', 'st']);

/**
 * An identifier as words: `listAzureRegistries`, `acr_registry_list` and `get-user.by_id` become
 * "list Azure Registries", "acr registry list" and "get user by id".
 */
export function identifierWords(identifier: string): string {
  return identifier
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A description's first sentence (what the tool is for), at most {@link MAX_PURPOSE_CHARS}
 * characters, cut at a word: the rest of a long description (options, output fields, caveats) is
 * about using the tool, not about which request it serves.
 */
export function firstSentence(description: string): string {
  const text = description.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s|$)/g;
  let cut = text.length;
  for (let match = end.exec(text); match !== null; match = end.exec(text)) {
    const word = /[^\s(]*$/.exec(text.slice(0, match.index))![0].toLowerCase();
    if (word === '' || ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word)) continue;
    cut = match.index + 1;
    break;
  }
  const sentence = text.slice(0, cut);
  if (sentence.length <= MAX_PURPOSE_CHARS) return sentence;
  const room = sentence.slice(0, MAX_PURPOSE_CHARS);
  const space = room.lastIndexOf(' ');
  return space > MAX_PURPOSE_CHARS / 2 ? room.slice(0, space) : room;
}

/**
 * The text a tool is embedded with for hybrid search: its name as words, the first sentence of its
 * description, its tags and its source, one per line (empty parts left out).
 */
export function embeddingText(tool: Pick<CatalogTool<unknown>, 'name' | 'description' | 'tags' | 'source'>): string {
  const parts = [identifierWords(tool.name), firstSentence(tool.description ?? ''), ...(tool.tags ?? []), tool.source];
  return parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').join('\n');
}
