import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from './errors-entry.js';
import * as main from './index.js';
import * as internal from './internal.js';
import * as sources from './sources-entry.js';

/** The values an entry exports (types leave nothing at run time), sorted. */
function values(entry: object): string[] {
  return Object.keys(entry).sort();
}

describe('public API tiers', () => {
  it('the main entry keeps what users call: at most 40 values', () => {
    expect(values(main).length).toBeLessThanOrEqual(40);
    expect(values(main)).toMatchInlineSnapshot(`
      [
        "DEFAULT_META_TOOL_NAMES",
        "DEFAULT_MIN_SCORE",
        "DEFAULT_RANKING",
        "InMemoryEmbeddingCache",
        "InMemoryFeedbackStore",
        "InMemoryLoadedToolStore",
        "KeyValueFeedbackStore",
        "KeyValueLoadedToolStore",
        "MAX_INDEXED_CHARS",
        "MODEL_INPUT_LIMITS",
        "TOOL_SEARCH_MODES",
        "ToolCatalog",
        "ToolFeedback",
        "ToolIndex",
        "ToolSearchSession",
        "ToolscoutError",
        "VectorIndex",
        "countTokens",
        "countToolDefinitionTokens",
        "detectCatalogFormat",
        "fromAnthropicTools",
        "fromMcpTools",
        "fromOpenAITools",
        "importCatalog",
        "isValidToolName",
        "parseQueriesJsonl",
        "parseToolsJsonl",
        "toJsonSchema",
        "toToolName",
        "validateInput",
      ]
    `);
  });

  it('the errors entry has every error class, and nothing else', () => {
    for (const [name, value] of Object.entries(errors)) {
      expect(typeof value, name).toBe('function');
      expect(value === errors.ToolscoutError || value.prototype instanceof errors.ToolscoutError, name).toBe(true);
    }
    expect(values(errors)).toContain('ToolCallFailedError');
  });

  it('the sources entry has what a gateway in front of live sources builds on', () => {
    expect(values(sources)).toMatchInlineSnapshot(`
      [
        "CallsInProgress",
        "CatalogMirror",
        "CoalescedTask",
        "DEFAULT_PAGE_SIZE",
        "LOG_LEVELS",
        "MAX_CURSOR_CHARS",
        "MAX_OFFER_HITS",
        "MAX_PAGES_PER_LIST_PAGE",
        "MAX_SUBSCRIPTIONS_PER_SESSION",
        "NAME_SEPARATOR",
        "OfferIndex",
        "SessionInterests",
        "SourceNames",
        "SupervisedSource",
        "URI_SEPARATOR",
        "assertPositiveMs",
        "audienceOf",
        "decodeCursor",
        "encodeCursor",
        "mergedPage",
        "pageOf",
        "routeToSession",
        "sourceNameProblem",
      ]
    `);
  });

  it('the sources entry is framework-neutral: its modules import only core (no SDK, no Node module)', () => {
    const folder = new URL('./sources/', import.meta.url);
    const modules = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(modules.length).toBeGreaterThan(5);
    for (const file of modules) {
      const text = readFileSync(new URL(file, folder), 'utf8');
      for (const [, specifier] of text.matchAll(/from '([^']+)'/g)) {
        expect(specifier?.startsWith('.'), `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('no value is in two tiers', () => {
    const tiers = [
      values(main),
      values(errors).filter((name) => name !== 'ToolscoutError'),
      values(internal),
      values(sources),
    ];
    const seen = new Map<string, number>();
    for (const [tier, names] of tiers.entries()) {
      for (const name of names) {
        expect(seen.get(name), `${name} in tiers ${seen.get(name)} and ${tier}`).toBeUndefined();
        seen.set(name, tier);
      }
    }
  });
});

describe('what a session keeps to itself', () => {
  it('a session has no public members that only its steps use', () => {
    const session = new main.ToolSearchSession({ catalog: [{ id: 'a', description: 'A tool.' }] });
    const stepOnly = [
      'policyFor',
      'searchWith',
      'remember',
      'suggest',
      'emit',
      'isDirect',
      'loadPhases',
      'descriptionBudget',
      'expectCalls',
    ];
    for (const name of stepOnly) expect(name in session, name).toBe(false);
    session.dispose();
  });
});
