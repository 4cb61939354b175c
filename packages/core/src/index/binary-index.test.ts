import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { IndexMismatchError, InvalidIndexError, ToolscoutError } from '../errors.js';
import { HashEmbedder } from '../test-utils/hash-embedder.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { bytesIntegrity } from './index-integrity.js';
import { ToolIndex, type ToolIndexOptions } from './tool-index.js';

const TOOLS: ToolDescriptor[] = [
  {
    id: 'weather__get_forecast',
    name: 'get_forecast',
    description: 'Weather forecast for the next days in a city. Forecast days ahead.',
    tags: ['weather'],
    source: 'weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  },
  { id: 'weather__get_current', name: 'get_current', description: 'Current temperature and wind.', source: 'weather' },
  { id: 'mail__send_email', name: 'sendEmail', description: 'Send an email message.', source: 'mail' },
  { id: 'mail__list_inbox', name: 'listInbox', description: 'List the messages in the inbox.', source: 'mail' },
  { id: 'cal__calendar_events', name: 'calendarEvents', description: 'Events of a calendar.', source: 'cal' },
  { id: 'zh__weather', name: '天气预报', description: '查询城市的天气预报', source: 'zh' },
  { id: 'fr__meteo', name: 'météo', description: 'Prévisions météo pour une ville 🌦 française', source: 'fr' },
];
const QUERIES = [
  'weather forecast',
  'send email',
  'list',
  '天气',
  'calandar',
  'sendEmail',
  'météo ville',
  'days ahead',
  'forec messag', // (prefixes)
  'wether forcast', // (typos)
];

/** The error `ToolIndex.fromBinary` throws for some data (it must be a ToolscoutError). */
function loadError(catalog: ToolCatalog, data: unknown, options?: ToolIndexOptions): ToolscoutError {
  const error = thrown(() => ToolIndex.fromBinary(catalog, data as Uint8Array, options));
  expect(ToolscoutError.isInstance(error)).toBe(true);
  return error as ToolscoutError;
}

/** A copy of saved bytes changed by `edit`, its integrity hash recomputed afterwards. */
function rehashed(bytes: Uint8Array, edit: (copy: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  edit(copy);
  copy.set(new TextEncoder().encode(bytesIntegrity(copy.subarray(24))), 8);
  return copy;
}

/** Where the integer block of saved bytes starts: after the header, the floats and the phrase entries. */
function integersAt(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return 40 + 8 * view.getUint32(28, true) + view.getUint32(36, true);
}

describe('ToolIndex binary form', () => {
  it('round-trips with identical results (ids, scores and matches), then follows the catalog', async () => {
    const catalog = new ToolCatalog(TOOLS);
    const original = new ToolIndex(catalog);
    catalog.remove('mail__list_inbox'); // a removed document: the saved one numbers them anew
    catalog.add({ id: 'lang__translate', name: 'translate', description: 'Translate text.' });
    const bytes = original.toBinary();
    const loaded = ToolIndex.fromBinary(catalog, bytes);
    for (const query of QUERIES) {
      expect(await loaded.search(query, { minScore: 0, limit: 20 }), query).toEqual(
        await original.search(query, { minScore: 0, limit: 20 }),
      );
    }
    // A Buffer at an odd offset (a slice of a bigger one) loads too.
    const shifted = Buffer.concat([Buffer.from([1]), Buffer.from(bytes)]).subarray(1);
    const fromShifted = ToolIndex.fromBinary(catalog, shifted);
    expect(await fromShifted.search('weather')).toEqual(await original.search('weather'));
    // It keeps its own copy of what it decodes later: the caller may reuse its buffer.
    shifted.fill(0);
    expect(await fromShifted.search('send email')).toEqual(await original.search('send email'));
    // Both follow the catalog alike (a removal decodes every term's postings the loaded index had left).
    catalog.remove('cal__calendar_events');
    catalog.replace({ ...TOOLS[0]!, description: 'Forecast of rain.' });
    for (const query of QUERIES) {
      expect(await loaded.search(query, { minScore: 0 }), query).toEqual(await original.search(query, { minScore: 0 }));
    }
    original.dispose();
    catalog.add({ id: 'lang__summarize', name: 'summarize', description: 'Summarize a long text.' });
    expect((await loaded.search('summarize')).map((hit) => hit.id)).toEqual(['lang__summarize']);
    expect((await loaded.search('summar')).map((hit) => hit.id)).toEqual(['lang__summarize']);
    loaded.dispose();
    expect(thrown(() => loaded.toBinary())).toMatchObject({ code: 'index-disposed' });
  });

  it('is at most half the size of the JSON form', () => {
    const tools = Array.from({ length: 400 }, (_, i) => ({
      id: `tool_${i}`,
      name: `tool ${i % 37} ${['get', 'set', 'list'][i % 3]}`,
      description: `Does thing ${i % 91} with widget ${i % 13} and gadget ${i % 7}.`,
    }));
    const index = new ToolIndex(new ToolCatalog(tools));
    const json = JSON.stringify(index.toJSON());
    expect(index.toBinary().length).toBeLessThanOrEqual(json.length / 2);
  });

  it('keeps a hybrid index’s vectors: nothing is embedded again on load', async () => {
    const embedder = new HashEmbedder();
    const catalog = new ToolCatalog(TOOLS);
    const index = new ToolIndex(catalog, { embedder });
    const expected = await index.search('weather forecast'); // (every tool embedded by now)
    const bytes = index.toBinary();
    const texts = embedder.calls.flat().length;
    const loaded = ToolIndex.fromBinary(catalog, bytes, { embedder });
    expect(await loaded.search('weather forecast')).toEqual(expected);
    expect(embedder.calls.flat().length - texts).toBe(1); // (only the query)
    // Without an embedder the vectors are skipped and the index is keyword-only.
    expect(await ToolIndex.fromBinary(catalog, bytes).search('email')).toEqual(
      await new ToolIndex(catalog).search('email'),
    );
  });

  it('refuses what is not a binary index, naming fromJSON for a JSON one', () => {
    const catalog = new ToolCatalog(TOOLS);
    const index = new ToolIndex(catalog);
    const json = JSON.stringify(index.toJSON());
    const fromJson = loadError(catalog, new TextEncoder().encode(json));
    expect(InvalidIndexError.isInstance(fromJson)).toBe(true);
    expect(fromJson.message).toMatch(/looks like JSON: .*ToolIndex\.fromJSON/);
    expect(loadError(catalog, json).message).toMatch(
      /a string \(a JSON saved index is loaded with ToolIndex\.fromJSON\)/,
    );
    expect(loadError(catalog, new Uint8Array([1, 2, 3])).message).toMatch(/does not start with "TSIX"/);
    expect(loadError(catalog, null).code).toBe('invalid-index');
    // and fromJSON, given the binary form, says it is not JSON
    expect(thrown(() => ToolIndex.fromJSON(catalog, index.toBinary() as never))).toMatchObject({
      code: 'invalid-index',
    });
  });

  it('refuses another version, a truncation and any changed byte, with the rebuild advice', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    const newer = bytes.slice();
    new DataView(newer.buffer).setUint32(4, 99, true);
    expect(loadError(catalog, newer).message).toMatch(/format version 99, written by a newer toolscout/);
    // (version 5 kept field lengths and hashed no ids)
    const older = bytes.slice();
    new DataView(older.buffer).setUint32(4, 5, true);
    expect(loadError(catalog, older).message).toMatch(
      /format version 5, written by an older toolscout; this toolscout reads format version 6\. Rebuild/,
    );
    expect(loadError(catalog, bytes.subarray(0, bytes.length - 1)).message).toMatch(
      /damaged \(its length .* is not what its header says\)/,
    );
    for (const at of [24, 40, 60, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = bytes.slice();
      changed[at] = changed[at]! ^ 0x01;
      const error = loadError(catalog, changed);
      expect(error.code).toBe('invalid-index');
      expect(error.message).toMatch(/integrity check|damaged/);
      expect(error.message).toMatch(/Rebuild the index from the catalog/);
    }
  });

  it('checks every number even under a recomputed hash', async () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    // Every single-byte change of the integer block, rehashed, is refused as damaged (or as another
    // catalog's), or keeps the content well-formed (a term frequency, say): an index that answers.
    const start = integersAt(bytes);
    const end = start + new DataView(bytes.buffer).getUint32(24, true);
    let refused = 0;
    for (let at = start; at < end; at++) {
      const changed = rehashed(bytes, (copy) => {
        copy[at] = (copy[at]! + 1) & 0xff;
      });
      let loaded: ToolIndex | undefined;
      try {
        loaded = ToolIndex.fromBinary(catalog, changed);
      } catch (error) {
        expect(InvalidIndexError.isInstance(error) || IndexMismatchError.isInstance(error), String(error)).toBe(true);
        refused += 1;
      }
      for (const query of loaded ? QUERIES : []) {
        for (const hit of await loaded!.search(query, { minScore: 0 })) expect(hit.score).toBeLessThanOrEqual(1);
      }
    }
    expect(refused).toBeGreaterThan((end - start) / 2);
  });

  it('refuses counts its data cannot hold before allocating for them', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    const start = integersAt(bytes);
    // The number of documents (after the field count) made 2^35: five bytes in place of one.
    const varints = bytes.subarray(start);
    const huge = [0x80, 0x80, 0x80, 0x80, 0x80 | 0x01]; // (not the end: the next byte ends it)
    const changed = new Uint8Array(bytes.length + huge.length);
    changed.set(bytes.subarray(0, start + 1));
    changed.set(huge, start + 1);
    changed.set(varints.subarray(1), start + 1 + huge.length);
    new DataView(changed.buffer).setUint32(24, new DataView(bytes.buffer).getUint32(24, true) + huge.length, true);
    const rehashedCopy = rehashed(changed, () => {});
    const error = loadError(catalog, rehashedCopy);
    expect(error.message).toMatch(/damaged \(its number of documents is \d+, more than its \d+ bytes left can hold\)/);
  });

  it('counts the field lengths from the postings, and refuses averages that are not their mean', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    // The floats start with the fields' average lengths: the first one made a little larger.
    const changed = rehashed(bytes, (copy) => {
      const view = new DataView(copy.buffer);
      view.setFloat64(40, view.getFloat64(40, true) + 0.5, true);
    });
    expect(loadError(catalog, changed).message).toMatch(
      /damaged \(average length of field 0 is [\d.]+, not the mean of the documents' lengths\)/,
    );
  });

  it('keeps the phrase entries in 2 bytes each, and refuses one beyond the vocabulary', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    const view = new DataView(bytes.buffer);
    const entriesAt = 40 + 8 * view.getUint32(28, true);
    const entryBytes = view.getUint32(36, true);
    expect(entryBytes).toBeGreaterThan(0);
    expect(entryBytes % 2).toBe(0);
    const changed = rehashed(bytes, (copy) => new DataView(copy.buffer).setUint16(entriesAt, 0xfffe, true));
    expect(loadError(catalog, changed).message).toMatch(/damaged \(a phrase term is 65533, not a term\)/);
    const odd = rehashed(bytes, (copy) => new DataView(copy.buffer).setUint32(36, entryBytes - 1, true));
    expect(loadError(catalog, odd).message).toMatch(/damaged/);
  });

  it('refuses a document with more phrase pairs written than its lines hold', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    // The integers end with each document's pairs and entries (one byte each here), then the vector flag.
    const end = integersAt(bytes) + new DataView(bytes.buffer).getUint32(24, true);
    const changed = rehashed(bytes, (copy) => {
      copy[end - 1 - 2 * TOOLS.length + 2] = 100;
    });
    expect(loadError(catalog, changed).message).toMatch(
      /damaged \(malformed phrase section: document 1 has 100 pairs written, its lines hold \d+ at most\)/,
    );
  });

  it('keeps the phrase entries in 4 bytes each for a vocabulary of 65,535 terms or more', async () => {
    // 700 tools of 100 made-up words each (letters only: the tokeniser splits at digits).
    const word = (n: number) => {
      let text = 'q';
      for (let rest = n; rest > 0; rest = Math.floor(rest / 26)) text += String.fromCharCode(97 + (rest % 26));
      return `${text}z`;
    };
    const tools = Array.from({ length: 700 }, (_, t) => ({
      id: `tool_${word(t)}`,
      description: Array.from({ length: 100 }, (_, w) => word(t * 100 + w)).join(' '),
    }));
    const catalog = new ToolCatalog(tools);
    const index = new ToolIndex(catalog);
    const bytes = index.toBinary();
    const view = new DataView(bytes.buffer);
    const entryBytes = view.getUint32(36, true);
    expect(entryBytes % 4).toBe(0);
    // (70,000 description words and a few name words a tool: 4 bytes each, not 2)
    expect(entryBytes / 4).toBeGreaterThan(70_000);
    expect(entryBytes / 4).toBeLessThan(80_000);
    const loaded = ToolIndex.fromBinary(catalog, bytes);
    for (const query of [word(123), `${word(70_000 - 1)} ${word(5)}`, word(68_000)]) {
      const hits = await index.search(query);
      expect(hits.length).toBeGreaterThan(0);
      expect(await loaded.search(query)).toEqual(hits);
    }
  });

  it('checks every tool of a catalog in another order, by id', async () => {
    const bytes = new ToolIndex(new ToolCatalog(TOOLS)).toBinary();
    const reversed = new ToolCatalog([...TOOLS].reverse());
    const loaded = ToolIndex.fromBinary(reversed, bytes);
    const built = new ToolIndex(reversed);
    for (const query of QUERIES) {
      expect(await loaded.search(query, { minScore: 0 })).toEqual(await built.search(query, { minScore: 0 }));
    }
    const changed = new ToolCatalog([...TOOLS].reverse().map((tool, i) => (i === 2 ? { ...tool, name: 'x' } : tool)));
    const error = loadError(changed, bytes);
    expect(IndexMismatchError.isInstance(error)).toBe(true);
    expect((error as IndexMismatchError).toolId).toBe(TOOLS[TOOLS.length - 3]!.id);
  });

  it('tells a catalog that changed since (IndexMismatchError naming the tool)', () => {
    const catalog = new ToolCatalog(TOOLS);
    const bytes = new ToolIndex(catalog).toBinary();
    catalog.replace({ ...TOOLS[2]!, description: 'Send a letter.' });
    const changed = loadError(catalog, bytes);
    expect(IndexMismatchError.isInstance(changed)).toBe(true);
    expect((changed as IndexMismatchError).toolId).toBe('mail__send_email');
    const fewer = new ToolCatalog(TOOLS.slice(1));
    expect(loadError(fewer, bytes).message).toMatch(
      /indexed 7 tools, the catalog has 6 \(e\.g\. "weather__get_forecast"/,
    );
  });
});
