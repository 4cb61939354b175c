import { describe, expect, it } from 'vitest';
import { embeddingText, firstSentence, identifierWords } from './embedding-text.js';

describe('identifierWords', () => {
  it('splits identifiers at case changes, underscores, hyphens, dots, slashes and colons', () => {
    expect(identifierWords('listAzureRegistries')).toBe('list Azure Registries');
    expect(identifierWords('acr_registry_list')).toBe('acr registry list');
    expect(identifierWords('get-user.by_id')).toBe('get user by id');
    expect(identifierWords('getHTTPResponse')).toBe('get HTTP Response');
    expect(identifierWords('Songkick concert')).toBe('Songkick concert');
    expect(identifierWords('__')).toBe('');
  });
});

describe('firstSentence', () => {
  it('keeps the first sentence, whitespace folded', () => {
    expect(firstSentence('List Azure Container Registries in a subscription. Optionally filter\nby group.')).toBe(
      'List Azure Container Registries in a subscription.',
    );
    expect(firstSentence('Concert info')).toBe('Concert info');
    expect(firstSentence('  Is it up?  Yes.')).toBe('Is it up?');
    expect(firstSentence('')).toBe('');
  });

  it('does not end a sentence at an abbreviation, an initial or a number', () => {
    expect(firstSentence('Analyze evidence (e.g. DNA, fibers) from a scene. Then report.')).toBe(
      'Analyze evidence (e.g. DNA, fibers) from a scene.',
    );
    expect(firstSentence('Compare A vs. B in detail. More.')).toBe('Compare A vs. B in detail.');
    expect(firstSentence('Works with version 2.5 of the API. More.')).toBe('Works with version 2.5 of the API.');
  });

  it('cuts a long sentence at a word, within 300 characters', () => {
    const long = `Search ${'very '.repeat(100)}long`;
    const cut = firstSentence(long);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(long.startsWith(cut)).toBe(true);
    expect(cut.endsWith('very')).toBe(true);
  });
});

describe('embeddingText', () => {
  it("joins the name as words, the description's first sentence, tags and source, one per line", () => {
    const tool = {
      name: 'acr_registry_list',
      description: 'List Azure Container Registries. Each result includes: name, location.',
      tags: ['acr'],
      source: 'azure-mcp',
    };
    expect(embeddingText(tool)).toBe('acr registry list\nList Azure Container Registries.\nacr\nazure-mcp');
    expect(embeddingText({ name: 'ping', description: '  ' })).toBe('ping');
  });
});
