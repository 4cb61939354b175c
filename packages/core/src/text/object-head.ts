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

/** Quoted text and `<placeholders>`: values a request supplies, not what it asks for. */
const VALUES = /"[^"]*"|“[^”]*”|<[^>]*>|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu;

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
  const clause = clauses[0]!.replace(VALUES, ' , ');
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
