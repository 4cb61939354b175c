// Why a hit matched: the query's words and where in the tool's indexed text each was found (name,
// description, tags, source, a parameter), and how (exactly, as a prefix, with a typo, as a phrase).
// Computed after ranking, for the returned hits only, from the query's terms and the hit's indexed
// document: the ranking loop does no extra work, and a search without `explain` none at all.
import { editDistance } from '../text/edit-distance.js';
import { splitWords, tokenize, wordTerm } from '../text/tokenize.js';
import type { CatalogTool, MatchReason, MatchReasonField } from '../types.js';
import { isRecord } from '../values.js';
import { MAX_TYPO_TERMS, type RankingParams, typoEdits } from './ranking-params.js';
import { queryClauses } from './scorer.js';
import { termText } from './term-numbers.js';
import { INDEX_FIELDS, type IndexField, toolTerms } from './tool-document.js';

/** The fields reasons are given for, in the order they are reported. */
const REASON_FIELDS: readonly (IndexField & MatchReasonField)[] = ['name', 'description', 'tags', 'source'];
const PARAMETERS = INDEX_FIELDS.indexOf('parameters');
const DESCRIPTION = INDEX_FIELDS.indexOf('description');

/** A query as reasons need it: its terms per clause, and the word of the query each term came from. */
export interface ExplainedQuery {
  /** The distinct terms, in order of appearance. */
  readonly terms: readonly string[];
  /** Each clause's terms in order (pairs of neighbours make phrases), as the scorer splits them. */
  readonly clauses: readonly (readonly string[])[];
  /** The query's word (lower case, as typed) each term came from. */
  readonly wordOf: ReadonlyMap<string, string>;
  /** The terms a typo search is made for at all: the first `MAX_TYPO_TERMS`, as in the scorer. */
  readonly typoTerms: ReadonlySet<string>;
}

/** Tokenises a query as the scorer does, keeping which of its words each term came from. */
export function explainQuery(query: string, ranking: RankingParams): ExplainedQuery {
  const clauses = queryClauses(query, ranking);
  const terms = [...new Set(clauses.flat())];
  const wordOf = new Map<string, string>();
  for (const word of splitWords(query)) {
    const term = wordTerm(word);
    if (term !== null && !wordOf.has(term)) wordOf.set(term, word.toLowerCase());
  }
  return { terms, clauses, wordOf, typoTerms: new Set(terms.slice(0, MAX_TYPO_TERMS)) };
}

/** What reasons need of the index: its ranking rules, and how many tools have a term exactly. */
export interface ExplainContext {
  readonly ranking: RankingParams;
  /** How many tools have the term exactly in a scored field (typos count only for rare terms, as in the scorer). */
  toolsWith(term: string): number;
}

/**
 * Why `tool` matched `query`: per query term and field, its best match there (exact, else prefix,
 * else typo), then phrases (two neighbouring query words side by side in the name or description).
 * The rules are the scorer's: prefixes from `prefixMinLength` letters, typos (see `typoEdits`) only
 * for a term at most `fuzzyMaxTools` tools have among the request's first `MAX_TYPO_TERMS`, fields
 * of weight 0 never.
 */
export function explainHit(tool: CatalogTool<unknown>, query: ExplainedQuery, context: ExplainContext): MatchReason[] {
  const { ranking } = context;
  const document = toolTerms(tool);
  const fieldTerms = document.fields.map((runs) => {
    const terms = new Set<number>();
    for (const run of runs) for (let i = 0; i < run.length; i++) terms.add(run[i]!);
    return new Set([...terms].map(termText));
  });
  const reasons: MatchReason[] = [];
  const typoAllowed = new Map<string, boolean>();
  const mayTypo = (term: string) => {
    let allowed = typoAllowed.get(term);
    if (allowed === undefined) {
      allowed =
        query.typoTerms.has(term) && typoEdits(term, ranking) > 0 && context.toolsWith(term) <= ranking.fuzzyMaxTools;
      typoAllowed.set(term, allowed);
    }
    return allowed;
  };
  let parameters: ParameterTerms[] | undefined;
  for (const term of query.terms) {
    const word = query.wordOf.get(term) ?? term;
    for (const field of [...REASON_FIELDS, 'parameters' as const]) {
      const f = INDEX_FIELDS.indexOf(field);
      if (!(ranking.fieldWeights[field] > 0)) continue;
      const match = bestMatch(term, fieldTerms[f]!, ranking, mayTypo);
      if (match === undefined) continue;
      if (f !== PARAMETERS) {
        reasons.push({ query: word, matched: match.matched, field: field as MatchReasonField, how: match.how });
        continue;
      }
      parameters ??= parameterTerms(tool.jsonSchema);
      const holders = parameters.filter((parameter) => parameter.terms.has(match.matched));
      const reason: MatchReason = { query: word, matched: match.matched, field: 'parameter', how: match.how };
      reasons.push(holders.length > 0 ? { ...reason, parameter: holders[0]!.path } : reason);
    }
  }
  if (ranking.fieldWeights.phrases > 0) reasons.push(...phraseReasons(document, query));
  return reasons;
}

/** The best match of a query term among a field's terms: itself, else a longer word it starts, else a near spelling. */
function bestMatch(
  term: string,
  terms: ReadonlySet<string>,
  ranking: RankingParams,
  mayTypo: (term: string) => boolean,
): { matched: string; how: MatchReason['how'] } | undefined {
  if (terms.has(term)) return { matched: term, how: 'exact' };
  let best: { matched: string; how: MatchReason['how'] } | undefined;
  if (term.length >= ranking.prefixMinLength) {
    for (const candidate of terms) {
      if (candidate.length > term.length && candidate.startsWith(term) && (!best || candidate < best.matched)) {
        best = { matched: candidate, how: 'prefix' };
      }
    }
    if (best) return best;
  }
  if (!mayTypo(term)) return undefined;
  const edits = typoEdits(term, ranking);
  let nearest = edits + 1;
  for (const candidate of terms) {
    if (Math.abs(candidate.length - term.length) > edits) continue;
    const distance = editDistance(term, candidate, edits, false); // (a swap is two edits, as in the typo lookups)
    if (distance > 0 && (distance < nearest || (distance === nearest && best && candidate < best.matched))) {
      nearest = distance;
      best = { matched: candidate, how: 'typo' };
    }
  }
  return best;
}

/**
 * Phrases: each pair of neighbouring query terms (per clause, each pair once) found side by side, in
 * either order, in a line of the tool's name or description.
 */
function phraseReasons(document: ReturnType<typeof toolTerms>, query: ExplainedQuery): MatchReason[] {
  // The phrase lines are the name's lines, then the description's.
  const descriptionLines = document.fields[DESCRIPTION]!.length;
  const nameLines = document.phraseLines.length - descriptionLines;
  const lines = document.phraseLines.map((line) => line.map(termText));
  const reasons: MatchReason[] = [];
  const seen = new Set<string>();
  for (const clause of query.clauses) {
    for (let i = 0; i + 1 < clause.length; i++) {
      const a = clause[i]!;
      const b = clause[i + 1]!;
      const key = a < b ? `${a} ${b}` : `${b} ${a}`;
      if (a === b || seen.has(key)) continue;
      seen.add(key);
      const at = lines.findIndex((line) => line.some((t, k) => k > 0 && sidebyside(line[k - 1]!, t, a, b)));
      if (at < 0) continue;
      const words = `${query.wordOf.get(a) ?? a} ${query.wordOf.get(b) ?? b}`;
      reasons.push({
        query: words,
        matched: `${a} ${b}`,
        field: at < nameLines ? 'name' : 'description',
        how: 'phrase',
      });
    }
  }
  return reasons;
}

function sidebyside(x: string, y: string, a: string, b: string): boolean {
  return (x === a && y === b) || (x === b && y === a);
}

/** A parameter's dotted path and the terms of its name, title and description. */
interface ParameterTerms {
  path: string;
  terms: Set<string>;
}

/** Each parameter of a JSON Schema (nested object properties as dotted paths, 3 levels) with its terms. */
function parameterTerms(schema: unknown): ParameterTerms[] {
  const found: ParameterTerms[] = [];
  const visit = (node: unknown, prefix: string, depth: number) => {
    if (!isRecord(node) || depth > 3 || found.length >= 64) return;
    if (isRecord(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        const texts = [name];
        if (isRecord(property)) {
          if (typeof property.title === 'string') texts.push(property.title);
          if (typeof property.description === 'string') texts.push(property.description);
        }
        const path = prefix === '' ? name : `${prefix}.${name}`;
        found.push({ path, terms: new Set(texts.flatMap((text) => tokenize(text))) });
        if (isRecord(property)) {
          visit(property, path, depth + 1);
          visit(property.items, path, depth + 1);
        }
      }
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const variants = node[key];
      if (Array.isArray(variants)) for (const variant of variants) visit(variant, prefix, depth);
    }
  };
  visit(schema, '', 1);
  return found;
}

/** The order of places in {@link formatReasons}: a word is shown at the first place it was found. */
const PLACE_ORDER: readonly MatchReasonField[] = ['name', 'description', 'parameter', 'tags', 'source'];

/**
 * The reasons as one short line for a model: each query word once, at the first of name,
 * description, parameter, tags and source it was found in (with how, when not exactly), then the
 * phrases; grouped by place, e.g. `name: weather; description: forcast (typo: forecast), "weather forecast"`;
 * for no reasons (a hybrid hit found by meaning alone), says so.
 */
export function formatReasons(reasons: readonly MatchReason[]): string {
  // (a hybrid index's hit found by meaning alone matched no word)
  if (reasons.length === 0) return 'no query word (similar in meaning)';
  const best = new Map<string, MatchReason>();
  for (const reason of reasons) {
    const key = reason.how === 'phrase' ? `"${reason.query}"` : reason.query;
    const known = best.get(key);
    if (known === undefined || PLACE_ORDER.indexOf(reason.field) < PLACE_ORDER.indexOf(known.field)) {
      best.set(key, reason);
    }
  }
  const groups = new Map<string, string[]>();
  const ordered = [...best.values()].sort(
    (a, b) =>
      PLACE_ORDER.indexOf(a.field) - PLACE_ORDER.indexOf(b.field) ||
      (a.how === 'phrase' ? 1 : 0) - (b.how === 'phrase' ? 1 : 0),
  );
  for (const reason of ordered) {
    const place = reason.field === 'parameter' && reason.parameter ? `parameter ${reason.parameter}` : reason.field;
    const what =
      reason.how === 'exact'
        ? reason.query
        : reason.how === 'phrase'
          ? `"${reason.query}"`
          : `${reason.query} (${reason.how}: ${reason.matched})`;
    const list = groups.get(place);
    if (list === undefined) groups.set(place, [what]);
    else list.push(what);
  }
  return [...groups].map(([place, what]) => `${place}: ${what.join(', ')}`).join('; ');
}
