// Action families: the verbs that tell sibling tools apart (`certificate_list`, `certificate_get`,
// `certificate_create`, ...). A request's action is read from its verbs and their synonyms, and from
// how it asks: "show me the certificates" (a plural object) asks for a list, "show me the
// certificate <name>" for one. The ranking then rewards tools whose name says that action in any
// of the family's words (see the scorer's action evidence).

import { splitClauses } from './clauses.js';
import { stem } from './stemmer.js';
import { FUNCTION_WORDS, REQUEST_WORDS } from './stop-words.js';
import { normalizeWord, splitWords } from './tokenize.js';

/**
 * The action families, each its words (normalised, unstemmed). A word is in one family only. The
 * first word of each is the family's name.
 */
export const ACTION_FAMILIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  list: ['list', 'lists', 'listing', 'enumerate', 'all', 'every'],
  get: ['get', 'gets', 'show', 'display', 'retrieve', 'fetch', 'view', 'describe', 'read', 'lookup', 'inspect'],
  create: ['create', 'creates', 'add', 'new', 'make', 'generate', 'provision', 'register', 'insert'],
  update: ['update', 'updates', 'modify', 'change', 'edit', 'set', 'configure', 'scale', 'adjust', 'patch'],
  delete: ['delete', 'deletes', 'remove', 'destroy', 'drop', 'erase', 'purge'],
});

/** Family words that say nothing of what a tool does when they are in its name. */
const NOT_IN_NAMES: ReadonlySet<string> = new Set(['all', 'every', 'new', 'set', 'make', 'view', 'read', 'change']);

/** Words that ask to see something: with a plural object they ask for a list, else for one item. */
const LOOKUP_WORDS: ReadonlySet<string> = new Set(['show', 'display', 'view', 'what', 'which', 'see']);

/** Words ending in `s` that are not plurals of a countable object (or not nouns). */
const NOT_PLURAL: ReadonlySet<string> = new Set([
  'details',
  'settings',
  'status',
  'analytics',
  'metrics',
  'insights',
  'news',
  'is',
  'was',
  'has',
  'does',
  'this',
  'its',
  'us',
  'yes',
  'always',
  'perhaps',
  'across',
]);

const FAMILY_OF = new Map<string, string>();
for (const [family, words] of Object.entries(ACTION_FAMILIES)) for (const word of words) FAMILY_OF.set(word, family);

/**
 * Each family's name and the index terms (stems) of its words, in {@link ACTION_FAMILIES} order;
 * the words that are not verbs ("all", "new", ...) are left out: they name no action in a tool name.
 */
export const ACTION_TERMS: readonly { family: string; terms: readonly string[] }[] = Object.entries(
  ACTION_FAMILIES,
).map(([family, words]) => ({
  family,
  terms: [...new Set(words.filter((word) => !NOT_IN_NAMES.has(word)).map((word) => stem(word)))],
}));

/** Whether a normalised word reads as a plural noun (`certificates`, `nodepools`; not `status`). */
function isPlural(word: string): boolean {
  if (word.length < 4 || !word.endsWith('s') || NOT_PLURAL.has(word) || FAMILY_OF.has(word)) return false;
  return !/(?:ss|us|is|ics)$/.test(word) && /^[a-z]+$/.test(word);
}

/**
 * The action a clause asks for, read from its leading verb (the first word that is not a function
 * or request word: "please list ...", "can you delete ..."): its family; for a word that asks to see
 * something ("show", "what", ...), `list` when the clause's object is plural and `get` otherwise; and
 * `list` for a `get` followed by "all" or "every". A clause led by anything else asks for none: an
 * action word further on is often a noun ("give me a list of ...").
 */
function clauseAction(words: readonly string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (LOOKUP_WORDS.has(word)) return words.slice(i + 1).some(isPlural) ? 'list' : 'get';
    const family = FAMILY_OF.get(word);
    if (family === 'get' && words.slice(i + 1, i + 3).some((next) => next === 'all' || next === 'every')) return 'list';
    if (family !== undefined) return family;
    if (!FUNCTION_WORDS.has(word) && !REQUEST_WORDS.has(word)) return undefined;
  }
  return undefined;
}

/**
 * The action families a request of one clause asks for (names of {@link ACTION_FAMILIES}): that of
 * its leading verb (see {@link clauseAction}); none for a request of several clauses, whose actions
 * belong each to its own part (and whose tools' names often say none), nor for one without such a verb.
 */
export function requestActions(query: string): ReadonlySet<string> {
  const clauses = splitClauses(query);
  if (clauses.length !== 1) return NO_ACTIONS;
  const family = clauseAction(splitWords(clauses[0]!).map(normalizeWord));
  return family === undefined ? NO_ACTIONS : new Set([family]);
}

const NO_ACTIONS: ReadonlySet<string> = new Set();
