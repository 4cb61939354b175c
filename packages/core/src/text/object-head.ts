// The object of a request: what its verb acts on ("list the event grid *topics* in my
// subscription"), up to where its context starts ("in my subscription", "in resource group X").
// Sibling tools of one service differ in the object they act on, and English puts a noun phrase's
// head last: the object's last word names the thing asked for, the words before it qualify it.

import { splitClauses } from './clauses.js';
import { tokenizeQuery } from './tokenize.js';

/** Prepositions that end a request's object and open its context ("... in resource group X"). */
const CONTEXT_WORDS: ReadonlySet<string> = new Set([
  'in',
  'within',
  'inside',
  'on',
  'at',
  'from',
  'under',
  'across',
  'using',
  'via',
  'into',
]);

/** Words that open a question: the word after them is the object, not a verb ("what nodepools ..."). */
const QUESTION_WORDS: ReadonlySet<string> = new Set(['what', 'which', 'how', 'where', 'who', 'whose', 'when', 'why']);

/** The marks that open a value a request supplies (quoted text, a `<placeholder>`), each with its closing mark. */
const CLOSERS: Readonly<Record<string, string>> = { '"': '"', '“': '”', '<': '>', "'": "'" };

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The text with each value it supplies (`"quoted"`, `“quoted”`, `'quoted'` but not an apostrophe
 * within a word, `<placeholder>`) replaced by a comma; in time linear in its length (a mark never
 * closed after some point is not looked for again).
 */
export function withoutValues(text: string): string {
  let out = '';
  let copied = 0;
  const unclosed = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const opener = text[i]!;
    const closer = CLOSERS[opener];
    if (closer === undefined || unclosed.has(opener)) continue;
    if (opener === "'" && i > 0 && LETTER_OR_DIGIT.test(text[i - 1]!)) continue;
    const end = text.indexOf(closer, i + 1);
    if (end < 0) {
      unclosed.add(opener);
      continue;
    }
    if (opener === "'" && end + 1 < text.length && LETTER_OR_DIGIT.test(text[end + 1]!)) continue;
    out += `${text.slice(copied, i)} , `;
    copied = end + 1;
    i = end;
  }
  return out + text.slice(copied);
}

const WORD = /[\p{L}\p{N}_'-]+/gu;

/**
 * The term of the head of a one-clause request's object: the last term between its leading verb
 * (its first word with a term, unless a question word comes first) and its first context
 * preposition ("in", "from", "using", ...) or its end, quoted values left out; `undefined` for a
 * request of several clauses or without such a term ("show me my *servers*" → `server`).
 */
export function objectHead(query: string): string | undefined {
  const clauses = splitClauses(query);
  if (clauses.length !== 1) return undefined;
  const clause = withoutValues(clauses[0]!);
  let start = -1;
  let end = clause.length;
  for (const found of clause.matchAll(WORD)) {
    const word = found[0].toLowerCase();
    if (start < 0 && QUESTION_WORDS.has(word)) start = found.index;
    else if (start >= 0 && CONTEXT_WORDS.has(word)) {
      end = found.index;
      break;
    } else if (start < 0 && tokenizeQuery(found[0]).length > 0) start = found.index + found[0].length;
  }
  if (start < 0) return undefined;
  const verb = new Set(tokenizeQuery(clause.slice(0, start)));
  return tokenizeQuery(clause.slice(start, end))
    .filter((term) => !verb.has(term))
    .at(-1);
}
