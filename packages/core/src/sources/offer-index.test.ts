import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import { rejection, thrown } from '../test-utils/thrown.js';
import { MAX_OFFER_HITS, type Offer, OfferIndex } from './offer-index.js';

interface Doc {
  path: string;
}

const doc = (source: string, path: string, title: string, description?: string): Offer<Doc> => ({
  kind: 'document',
  id: `${source}+${path}`,
  title,
  ...(description ? { description } : {}),
  text: [path, 'text/markdown'],
  payload: { path },
});

const prompt = (source: string, name: string, description: string): Offer<Doc> => ({
  kind: 'prompt',
  id: `${source}__${name}`,
  description,
  text: [name],
  payload: { path: name },
});

/** An index with a wiki (documents, a prompt) and a docs source (documents), and what it refused. */
function wikiAndDocs() {
  const refused: string[] = [];
  const errors: string[] = [];
  const offers = new OfferIndex<Doc>({
    onRefused: (error, offer, source) => refused.push(`${source}: ${String(offer?.id)}: ${(error as Error).name}`),
    onError: (error, source) => errors.push(`${source}: ${(error as Error).message}`),
  });
  offers.replace('wiki', [
    doc('wiki', 'release-notes.md', 'Release notes', 'What changed in each version'),
    doc('wiki', 'onboarding.md', 'Onboarding guide', 'First steps for new engineers'),
    prompt('wiki', 'summarize', 'Summarize a page of the wiki in three sentences'),
  ]);
  offers.replace('docs', [doc('docs', 'api/search.md', 'Search API', 'How to query the search endpoint')]);
  return { offers, refused, errors };
}

describe('OfferIndex: entries that are not tools, per source, searchable like tools', () => {
  it('finds entries by their title, description and text, with the source, kind and payload', async () => {
    const { offers } = wikiAndDocs();
    expect(offers.size).toBe(4);
    expect(offers.sources.sort()).toEqual(['docs', 'wiki']);
    const [best] = await offers.search('release notes of each version');
    expect(best).toMatchObject({
      kind: 'document',
      source: 'wiki',
      id: 'wiki+release-notes.md',
      payload: { path: 'release-notes.md' },
    });
    expect(best!.score).toBeGreaterThan(0);
    expect(best!.score).toBeLessThanOrEqual(1);
    expect(Math.round(best!.score * 100) / 100).toBe(best!.score);
    expect((await offers.search('search endpoint'))[0]?.id).toBe('docs+api/search.md');
  });

  it('searches some kinds only', async () => {
    const { offers } = wikiAndDocs();
    const prompts = await offers.search('summarize the wiki page', { kinds: ['prompt'] });
    expect(prompts.map((hit) => hit.id)).toEqual(['wiki__summarize']);
    const documents = await offers.search('wiki page summarize onboarding', { kinds: ['document'] });
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.every((hit) => hit.kind === 'document')).toBe(true);
    expect(await offers.search('summarize', { kinds: [] })).toEqual([]);
    expect(await offers.search('summarize', { kinds: ['video'] })).toEqual([]);
  });

  it("searches a query's first 2,000 characters, as search_tools does", async () => {
    const { offers } = wikiAndDocs();
    // (a word no entry has, then `onboarding` ending at character 2,000, or starting there)
    expect((await offers.search(`${'x '.repeat(995)}onboarding`)).map((hit) => hit.id)).toEqual(['wiki+onboarding.md']);
    expect(await offers.search(`${'x '.repeat(1_000)}onboarding`)).toEqual([]);
  });

  it('clamps the limit to 1..MAX_OFFER_HITS, 5 by default', async () => {
    const offers = new OfferIndex<Doc>();
    offers.replace(
      'many',
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? doc('many', `page-${i}.md`, `Handbook page ${i}`, 'The team handbook')
          : doc('many', `recipe-${i}.md`, `Recipe ${i}`, 'Soup, bread and cake'),
      ),
    );
    expect(await offers.search('handbook')).toHaveLength(5);
    expect(await offers.search('handbook', { limit: 0 })).toHaveLength(1);
    expect(await offers.search('handbook', { limit: 2.9 })).toHaveLength(2);
    expect(await offers.search('handbook', { limit: 1000 })).toHaveLength(MAX_OFFER_HITS);
    expect(await offers.search('handbook', { limit: Number.POSITIVE_INFINITY })).toHaveLength(MAX_OFFER_HITS);
  });

  it('replaces one source’s entries as a set, leaving the other sources’ alone', async () => {
    const { offers } = wikiAndDocs();
    const changes = offers.replace('wiki', [
      doc('wiki', 'release-notes.md', 'Release notes', 'What changed in each version'), // unchanged
      doc('wiki', 'onboarding.md', 'Onboarding guide', 'Laptop setup and accounts'), // changed
      doc('wiki', 'glossary.md', 'Glossary', 'Words used in the team'), // new; the prompt is gone
    ]);
    expect(changes).toEqual({ added: 1, replaced: 1, removed: 1, refused: 0 });
    expect(await offers.search('summarize', { kinds: ['prompt'] })).toEqual([]);
    expect((await offers.search('laptop setup'))[0]?.id).toBe('wiki+onboarding.md');
    expect((await offers.search('glossary words'))[0]?.id).toBe('wiki+glossary.md');
    expect((await offers.search('search endpoint'))[0]?.id).toBe('docs+api/search.md');
    expect(offers.remove('wiki')).toBe(3);
    expect(offers.sources).toEqual(['docs']);
    expect(offers.size).toBe(1);
  });

  it('skips a malformed entry or an id another source has, keeping the earlier version of a changed one', async () => {
    const { offers, refused } = wikiAndDocs();
    const changes = offers.replace('mirror', [
      doc('docs', 'api/search.md', 'A copy under the same id', 'copy'), // docs' id
      { kind: '', id: 'mirror+x', payload: { path: 'x' } },
      { kind: 'document', id: 'mirror+ok', title: 'Fine', payload: { path: 'ok' } },
    ]);
    expect(changes).toEqual({ added: 1, replaced: 0, removed: 0, refused: 2 });
    expect(refused).toEqual([
      'mirror: mirror+x: InvalidArgumentError',
      'mirror: docs+api/search.md: DuplicateToolError',
    ]);
    expect((await offers.search('search endpoint'))[0]?.source).toBe('docs');

    // A changed entry that cannot be indexed (its payload has no JSON to compare): the earlier
    // version stays searchable.
    refused.length = 0;
    const cyclic: Doc & { self?: unknown } = { path: 'ok' };
    cyclic.self = cyclic;
    const kept = offers.replace('mirror', [{ kind: 'document', id: 'mirror+ok', title: 'Changed', payload: cyclic }]);
    expect(kept).toEqual({ added: 0, replaced: 0, removed: 0, refused: 1 });
    expect(refused).toEqual(['mirror: mirror+ok: TypeError']);
    expect((await offers.search('fine'))[0]).toMatchObject({ id: 'mirror+ok', payload: { path: 'ok' } });
  });

  it('refresh lists a source, one listing at a time, and reports a failed listing', async () => {
    const { offers, errors } = wikiAndDocs();
    let listings = 0;
    let release: (() => void) | undefined;
    const slowList = async () => {
      listings++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return [doc('docs', `v${listings}.md`, `Version ${listings} notes`)];
    };
    const first = offers.refresh('docs', slowList);
    const again = offers.refresh('docs', slowList);
    offers.refresh('docs', slowList);
    expect(again).toBe(first);
    expect(listings).toBe(1);
    release!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listings).toBe(2); // exactly one more
    release!();
    await first;
    await offers.settled();
    expect(listings).toBe(2);
    const docs = async () =>
      (await offers.search('version notes')).map((hit) => hit.id).filter((id) => id.startsWith('docs+'));
    expect(await docs()).toEqual(['docs+v2.md']);

    await offers.refresh('docs', async () => {
      throw new Error('the source is down');
    });
    expect(errors).toEqual(['docs: the source is down']);
    expect(await docs()).toEqual(['docs+v2.md']);
  });

  it('after dispose, searches answer from what was held and lists change nothing', async () => {
    const { offers } = wikiAndDocs();
    offers.dispose();
    offers.dispose();
    let listed = false;
    await offers.refresh('wiki', async () => {
      listed = true;
      return [];
    });
    expect(listed).toBe(false);
    expect(offers.replace('wiki', [])).toEqual({ added: 0, replaced: 0, removed: 0, refused: 0 });
    expect((await offers.search('release notes'))[0]?.id).toBe('wiki+release-notes.md');
  });

  it('refuses bad input with specific errors', async () => {
    const offers = new OfferIndex<Doc>();
    const argument = (fn: () => unknown) => thrown(fn) as InvalidArgumentError;
    expect(argument(() => offers.replace('', [])).message).toBe(
      'A source is named by a non-empty string, got an empty string.',
    );
    expect(argument(() => offers.replace(7 as never, [])).argument).toBe('source');
    expect(argument(() => offers.replace('s', {} as never)).message).toBe(
      'Offers are given as an array, got an object.',
    );
    expect(argument(() => offers.refresh('s', [] as never)).argument).toBe('list');
    expect(InvalidArgumentError.isInstance(argument(() => offers.remove(undefined as never)))).toBe(true);

    const refused: InvalidArgumentError[] = [];
    const strict = new OfferIndex({ onRefused: (error) => refused.push(error as InvalidArgumentError) });
    strict.replace('s', [
      null,
      { kind: 'doc', id: '', payload: 1 },
      { kind: 'doc', id: 'a', title: 3, payload: 1 },
      { kind: 'doc', id: 'b', text: 'not a list', payload: 1 },
    ] as never);
    expect(refused.map((error) => [error.argument, error.message])).toEqual([
      ['offer.', 'An offer must be an object, got null.'],
      ['offer.id', 'An offer needs a non-empty string id, got an empty string.'],
      ['offer.title', 'Offer "a": title must be a string, got a number.'],
      ['offer.text', 'Offer "b": text must be an array of strings, got a string.'],
    ]);
    expect(strict.size).toBe(0);

    const query = (await rejection(() => offers.search(42 as never))) as InvalidArgumentError;
    expect(query.argument).toBe('query');
    const limit = (await rejection(() => offers.search('x', { limit: Number.NaN }))) as InvalidOptionError;
    expect(InvalidOptionError.isInstance(limit)).toBe(true);
    expect(limit.message).toBe('limit must be a number from 1 to 20, got a number.');
    const kinds = (await rejection(() => offers.search('x', { kinds: 'prompt' as never }))) as InvalidOptionError;
    expect(kinds.option).toBe('kinds');
    expect(InvalidOptionError.isInstance(thrown(() => new OfferIndex({ onError: 'log' } as never)))).toBe(true);
  });
});
