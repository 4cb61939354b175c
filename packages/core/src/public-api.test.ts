import { describe, expect, it } from 'vitest';
import * as errors from './errors-entry.js';
import * as main from './index.js';
import * as internal from './internal.js';

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

  it('no value is in two tiers', () => {
    const tiers = [values(main), values(errors).filter((name) => name !== 'ToolscoutError'), values(internal)];
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
