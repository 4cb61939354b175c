import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { ToolIndex } from '../index/tool-index.js';
import { ACTION_FAMILIES, ACTION_TERMS, requestActions } from './action-verbs.js';

const actions = (query: string) => [...requestActions(query)];

describe('requestActions', () => {
  it("reads a one-clause request's action from its leading verb and its synonyms", () => {
    expect(actions('Delete the database <db> on server <server>')).toEqual(['delete']);
    expect(actions('Remove the firewall rule <rule>')).toEqual(['delete']);
    expect(actions('Please provision a new key vault certificate')).toEqual(['create']);
    expect(actions('can you modify the tier of my database')).toEqual(['update']);
    expect(actions('List container registries in my subscription')).toEqual(['list']);
    expect(actions('Retrieve secret metadata for <secret>')).toEqual(['get']);
  });

  it('asks for a list when the object to see is plural, else for one item', () => {
    expect(actions('Show me the certificates in the key vault <vault>')).toEqual(['list']);
    expect(actions('What keys are in the key vault <vault>?')).toEqual(['list']);
    expect(actions('Show me the secret <name> in the key vault <vault>')).toEqual(['get']);
    expect(actions('What is the setup of nodepool <nodepool>?')).toEqual(['get']);
    expect(actions('Show me the details of server <server>')).toEqual(['get']);
    expect(actions('Get all the load test runs for test <id>')).toEqual(['list']);
  });

  it('finds none where the action word is not the leading verb, nor in a request of several clauses', () => {
    expect(actions('Can you give me a list of jokes')).toEqual([]);
    expect(actions('weather in Paris')).toEqual([]);
    expect(actions('List my databases. Then delete the oldest one.')).toEqual([]);
    expect(actions('')).toEqual([]);
  });

  it('gives each word one family, and looks names up by the stems of verbs only', () => {
    const words = Object.values(ACTION_FAMILIES).flat();
    expect(new Set(words).size).toBe(words.length);
    const terms = ACTION_TERMS.flatMap((family) => family.terms);
    expect(terms).toContain('delet');
    expect(terms).not.toContain('all');
    expect(terms).not.toContain('set'); // (also the stem of "settings")
  });
});

describe('action evidence in the ranking', () => {
  const catalog = new ToolCatalog([
    { id: 'certificate_get', description: 'Get one certificate of a vault by its name.' },
    { id: 'certificate_list', description: 'Enumerate the certificates of a vault.' },
    { id: 'certificate_delete', description: 'Delete a certificate from a vault.' },
  ]);

  it('puts the sibling whose name says the asked action first, and not with actionWeight 0', async () => {
    const top = async (query: string, actionWeight?: number) =>
      (await new ToolIndex(catalog, actionWeight === undefined ? {} : { ranking: { actionWeight } }).search(query))[0]
        ?.id;
    expect(await top('Show me the certificates in vault <vault>')).toBe('certificate_list');
    expect(await top('Show me the certificates in vault <vault>', 0)).not.toBe('certificate_list');
    expect(await top('Remove certificate <certificate> from vault <vault>')).toBe('certificate_delete');
  });
});
