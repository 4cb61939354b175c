import type { ToolSearchProcessorOptions as MastraProcessorOptions } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { InMemoryLoadedToolStore } from '@toolscout/core';
import { DuplicateToolError, InvalidOptionError, InvalidToolError } from '@toolscout/core/errors';
import { describe, expect, it } from 'vitest';
import { requestContextOf } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';
import type { ToolSearchProcessorOptions } from './tool-search-processor-options.js';

function invalidOption(build: () => unknown, option: string, message: RegExp): void {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(InvalidOptionError.isInstance(caught), `expected an InvalidOptionError for ${option}`).toBe(true);
  expect((caught as InvalidOptionError).option).toBe(option);
  expect((caught as Error).message).toMatch(message);
}

describe('ToolSearchProcessor options', () => {
  const { tools } = createMastraTools();

  it("takes the options of Mastra's processor as they are (a one-line migration)", () => {
    // Typed with Mastra's own options type: this must compile and work unchanged.
    const mastraOptions: MastraProcessorOptions = {
      tools,
      search: { topK: 3, minScore: 0 },
      storage: 'in-memory',
      ttl: 60_000,
      filter: ({ phase, toolName }) => !(phase === 'load' && toolName === 'delete_repository'),
    };
    const processor = new ToolSearchProcessor(mastraOptions);
    expect(processor.id).toBe('tool-search');
    expect(processor.session.mode).toBe('search-load');
    expect(processor.session.options.search).toEqual({ limit: 3, minScore: 0 });
    expect(processor.session.memoryStore).toBeInstanceOf(InMemoryLoadedToolStore);
    expect(processor.session.catalog.list().map((tool) => tool.id)).toEqual([
      'get_weather',
      'get_forecast',
      'send_email',
      'delete_repository',
      'convert_currency',
      'translate_text',
    ]);
  });

  it('passes search.explain to the session: each search_tools result says why it matched', async () => {
    const processor = new ToolSearchProcessor({ tools, search: { explain: true } });
    const step = await processor.session.prepareStep({ threadId: 't' });
    const outcome = await step.execute('search_tools', { query: 'weather forecast' });
    const results = (outcome as { output: { results: { name: string; why?: string }[] } }).output.results;
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result.why).toMatch(/^(name|description|parameter|tags|source)/);
    const plain = await (await new ToolSearchProcessor({ tools }).session.prepareStep({ threadId: 't' })).execute(
      'search_tools',
      { query: 'weather forecast' },
    );
    expect(JSON.stringify(plain)).not.toContain('"why"');
    invalidOption(
      () => new ToolSearchProcessor({ tools, search: { explain: 1 as unknown as boolean } }),
      'search.explain',
      /search\.explain must be true or false; got a number/,
    );
  });

  it('maps autoLoad to auto-load mode, context storage to the conversation strategy, store to a shared store', () => {
    expect(new ToolSearchProcessor({ tools, search: { autoLoad: true } }).session.mode).toBe('auto-load');
    expect(new ToolSearchProcessor({ tools, storage: 'context' }).session.options.state).toBe('conversation');
    const store = new InMemoryLoadedToolStore();
    const shared = new ToolSearchProcessor({ tools, store });
    expect(shared.session.options.state).toBe(store);
    expect(shared.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    expect(shared.cleanupNow()).toBe(0);
    expect(new ToolSearchProcessor({ tools, mode: 'proxy' }).session.metaTools.map((meta) => meta.name)).toEqual([
      'search_tools',
      'describe_tool',
      'call_tool',
    ]);
  });

  it('pins tools by id', async () => {
    const processor = new ToolSearchProcessor({ tools, pinned: ['translate_text'] });
    const step = await processor.session.prepareStep({ threadId: 't' });
    expect(step.toolNames).toEqual(['search_tools', 'load_tool', 'translate_text']);
    const loaded = await processor.getLoadedToolsForRequestContext({ requestContext: new RequestContext() });
    expect(Object.keys(loaded)).toEqual(['translate_text']);
  });

  it('rejects bad options with a message that says what to do', () => {
    const base: ToolSearchProcessorOptions = { tools };
    invalidOption(
      () => new ToolSearchProcessor({ ...base, search: { minScore: 4.2 } }),
      'search.minScore',
      /\[0, 1\].*raw BM25/,
    );
    invalidOption(() => new ToolSearchProcessor({ ...base, search: { minScore: -1 } }), 'search.minScore', /\[0, 1\]/);
    invalidOption(() => new ToolSearchProcessor({ ...base, search: { topK: 0 } }), 'search.topK', /whole number >= 1/);
    invalidOption(
      () => new ToolSearchProcessor({ ...base, search: { topK: 2.5 } }),
      'search.topK',
      /whole number >= 1/,
    );
    invalidOption(
      () => new ToolSearchProcessor({ ...base, search: { autoLoad: true }, mode: 'proxy' }),
      'search.autoLoad',
      /give one of the two/,
    );
    invalidOption(
      () => new ToolSearchProcessor({ ...base, mode: 'fast' as never }),
      'mode',
      /search-load, auto-load, catalog, proxy/,
    );
    invalidOption(
      () => new ToolSearchProcessor({ ...base, storage: 'redis' as never }),
      'storage',
      /'in-memory' or 'context'/,
    );
    invalidOption(
      () => new ToolSearchProcessor({ ...base, storage: 'context', store: new InMemoryLoadedToolStore() }),
      'store',
      /either store or storage/,
    );
    invalidOption(
      () => new ToolSearchProcessor({ ...base, store: new InMemoryLoadedToolStore(), ttl: 5 }),
      'ttl',
      /expiry on your store/,
    );
    // Named as the user wrote it (the session's in-memory store calls it ttlMs).
    invalidOption(() => new ToolSearchProcessor({ ...base, ttl: -1 }), 'ttl', /milliseconds >= 0/);
    invalidOption(() => new ToolSearchProcessor({ ...base, ttl: Number.NaN }), 'ttl', /milliseconds >= 0/);
    invalidOption(() => new ToolSearchProcessor({ ...base, ttl: 2 ** 40 }), 'ttl', /at most 2147483647/);
    invalidOption(
      () => new ToolSearchProcessor({ ...base, includeResolvedTools: 'yes' as never }),
      'includeResolvedTools',
      /a boolean/,
    );
    // Mastra's next release takes a classifier; toolscout takes core's selector instead.
    invalidOption(
      () => new ToolSearchProcessor({ ...base, preselect: { classifier: 'intent' } as never }),
      'preselect.classifier',
      /preselect\.select\(message, context\)/,
    );
    invalidOption(() => new ToolSearchProcessor({ ...base, preselect: { limit: 0 } }), 'preselect.limit', /1 to 50/);
    invalidOption(() => new ToolSearchProcessor({ ...base, injectCatalog: true }), 'injectCatalog', /mode: 'catalog'/);
    invalidOption(() => new ToolSearchProcessor({ ...base, pinned: ['nope'] }), 'pinned', /not in tools: nope/);
    invalidOption(() => new ToolSearchProcessor({ ...base, filter: 'yes' as never }), 'filter', /must be a function/);
    invalidOption(
      () => new ToolSearchProcessor(undefined as never),
      'options',
      /new ToolSearchProcessor\(\{ tools \}\)/,
    );
    invalidOption(() => new ToolSearchProcessor({} as never), 'tools', /needs `tools`/);
  });

  it('rejects a search, tools or embedder of the wrong kind by name, never with a TypeError or in silence', () => {
    const base: ToolSearchProcessorOptions = { tools };
    invalidOption(
      () => new ToolSearchProcessor({ ...base, search: null as never }),
      'search',
      /\{ topK, minScore, autoLoad \}; got null/,
    );
    invalidOption(() => new ToolSearchProcessor({ ...base, search: 5 as never }), 'search', /got a number/);
    invalidOption(() => new ToolSearchProcessor({ tools: null as never }), 'tools', /by name or as a list.*got null/);
    invalidOption(() => new ToolSearchProcessor({ tools: 'get_weather' as never }), 'tools', /got a string/);
    // Checked by the index (core), under the same name; otherwise the first search failed with "embed is not a function".
    invalidOption(() => new ToolSearchProcessor({ ...base, embedder: 'use' as never }), 'embedder', /Embedder/);
    invalidOption(() => new ToolSearchProcessor({ ...base, embedder: { id: 'e' } as never }), 'embedder', /embed\(/);
  });

  it('rejects tools it cannot use, naming them', () => {
    expect(() => new ToolSearchProcessor({ tools: { broken: 'nope' as never } })).toThrow(
      /tools\["broken"\] must be a tool \(createTool/,
    );
    expect(() => new ToolSearchProcessor({ tools: [{ description: 'no id' } as never] })).toThrow(InvalidToolError);
    expect(() => new ToolSearchProcessor({ tools: { weird: { execute: 42 } as never } })).toThrow(
      /execute must be a function/,
    );
    expect(() => new ToolSearchProcessor({ tools: [tools.getWeather, tools.getWeather] })).toThrow(DuplicateToolError);
    expect(() => new ToolSearchProcessor({ tools: { a: { id: 'x', inputSchema: 42 } as never } })).toThrow(
      InvalidToolError,
    );
  });

  it('clears state and reports it', async () => {
    const processor = new ToolSearchProcessor({ tools });
    const step = await processor.session.prepareStep({ threadId: 'thread-1', resourceId: 'user-1' });
    await step.execute('load_tool', { toolName: 'get_weather' });
    expect(processor.getStateStats()).toEqual({ threadCount: 1, oldestAccessTime: expect.any(Number) });
    expect(processor.cleanupNow()).toBe(0);
    const requestContext = requestContextOf({ mastra__threadId: 'thread-1', mastra__resourceId: 'user-1' });
    expect(Object.keys(await processor.getLoadedToolsForRequestContext({ requestContext }))).toEqual(['get_weather']);
    await processor.clearState('thread-1', 'user-2'); // another key: the thread belongs to user-1
    expect(processor.getStateStats().threadCount).toBe(1);
    // Without a resource, as Mastra's clearState(threadId): the thread under every resource.
    await processor.clearState('thread-1');
    expect(processor.getStateStats().threadCount).toBe(0);
    await step.execute('load_tool', { toolName: 'send_email' });
    await processor.clearAllState();
    expect(await processor.getLoadedToolsForRequestContext({ requestContext })).toEqual({});
    processor.dispose();
  });
});
