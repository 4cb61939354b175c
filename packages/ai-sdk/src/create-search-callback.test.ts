import { InvalidArgumentError, InvalidOptionError } from '@toolscout/core/errors';
import { answer, callTool, ScriptedModel } from '@toolscout/test-kit';
import { generateText, stepCountIs, type ToolSet, toolSearch } from 'ai';
import { describe, expect, it } from 'vitest';
import { fixtureTools } from '../test-utils/fixture-tools.js';
import { invalidOptionOf } from '../test-utils/invalid-option.js';
import { createSearchCallback } from './create-search-callback.js';

/** The fixture tools, all deferred until `toolSearch` finds them. */
function deferredTools(): { tools: ToolSet; executions: ReturnType<typeof fixtureTools>['executions'] } {
  const { tools, executions } = fixtureTools();
  return {
    tools: Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, { ...tool, deferLoading: true }])),
    executions,
  };
}

/** Runs one search through a real generation and returns what the model was offered and found. */
async function searchThroughGeneration(search: ReturnType<typeof toolSearch>, tools: ToolSet, query: string) {
  const model = new ScriptedModel([callTool('toolSearch', { query }), answer()]);
  await generateText({
    model: model.mock,
    prompt: query,
    stopWhen: stepCountIs(3),
    tools: { toolSearch: search, ...tools },
  });
  const [result] = model.lastToolResults(1);
  const found = (result?.output as { tools: { name: string }[] } | undefined)?.tools.map((tool) => tool.name);
  return { offered: model.offered(), found };
}

describe('createSearchCallback with toolSearch({ search }) and deferLoading', () => {
  it("ranks deferred tools with toolscout's index, and the generation offers the matches next", async () => {
    const { tools, executions } = deferredTools();
    const model = new ScriptedModel([
      callTool('toolSearch', { query: 'forecasts for the coming days' }),
      callTool('get_forecast', { city: 'Rome', days: 3 }),
      answer('Sunny.'),
    ]);
    await generateText({
      model: model.mock,
      prompt: 'Forecast for Rome?',
      stopWhen: stepCountIs(5),
      tools: { toolSearch: toolSearch({ search: createSearchCallback() }), ...tools },
    });
    const offered = model.offered();
    expect(offered[0]).toEqual(['toolSearch']);
    const [found] = model.lastToolResults(1);
    expect(found!.toolName).toBe('toolSearch');
    expect((found!.output as { tools: { name: string }[] }).tools[0]!.name).toBe('get_forecast');
    expect(offered[1]).toContain('get_forecast');
    expect(executions.map((execution) => execution.name)).toEqual(['get_forecast']);
  });

  it("finds what the AI SDK's own keyword count misses (word forms)", async () => {
    const { tools } = deferredTools();
    const builtIn = await searchThroughGeneration(toolSearch(), tools, 'forecasts');
    const toolscout = await searchThroughGeneration(toolSearch({ search: createSearchCallback() }), tools, 'forecasts');
    expect(builtIn.found).toEqual([]);
    expect(toolscout.found?.[0]).toBe('get_forecast');
    expect(toolscout.offered[1]).toContain('get_forecast');
  });

  it('indexes parameters too when given the catalog', async () => {
    const { tools } = deferredTools();
    const withoutCatalog = await searchThroughGeneration(
      toolSearch({ search: createSearchCallback() }),
      tools,
      'subject line',
    );
    const withCatalog = await searchThroughGeneration(
      toolSearch({ search: createSearchCallback({ catalog: fixtureTools().tools }) }),
      tools,
      'subject line',
    );
    expect(withoutCatalog.found).toEqual([]);
    expect(withCatalog.found?.[0]).toBe('send_email');
  });

  it('never returns what the policy hides from search, nor tools the generation does not defer', async () => {
    const search = createSearchCallback({
      catalog: fixtureTools().tools,
      filter: ({ toolId, phase }) => !(phase === 'search' && toolId === 'delete_repository'),
    });
    const names = await search({
      query: 'delete github repository weather',
      tools: [
        { name: 'delete_repository', description: 'Delete a GitHub repository permanently.' },
        { name: 'get_forecast', description: 'Get a multi-day weather forecast for a city.' },
      ],
    });
    expect(names).toEqual(['get_forecast']);
  });

  it('answers nothing for an empty query or no candidates, and rejects bad input', async () => {
    const search = createSearchCallback();
    expect(await search({ query: '   ', tools: [{ name: 'get_weather', description: 'Weather' }] })).toEqual([]);
    expect(await search({ query: 'weather', tools: [] })).toEqual([]);
    // A bad input is core's InvalidArgumentError (it was a TypeError), naming what is wrong.
    await expect(search({ query: 42 } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(search({ query: 42 } as never)).rejects.toMatchObject({ argument: 'input' });
    await expect(search({ query: 'x', tools: [{ name: 7 }] } as never)).rejects.toMatchObject({
      argument: 'candidates[0]',
    });
    expect(() => createSearchCallback({ limit: 0 })).toThrow(InvalidOptionError);
    expect(invalidOptionOf(() => createSearchCallback(null as never))).toBe('options');
    expect(invalidOptionOf(() => createSearchCallback({ catalog: 42 as never }))).toBe('catalog');
    expect(invalidOptionOf(() => createSearchCallback({ limit: 2.5 }))).toBe('limit');
  });

  it('indexes the tools it is handed as they come, and again when a description changes', async () => {
    const search = createSearchCallback();
    const tools = [
      { name: 'tool_a', description: 'Send an email message.' },
      { name: 'tool_b', description: 'Get the weather forecast.' },
    ];
    expect(await search({ query: 'weather', tools })).toEqual(['tool_b']);
    // Another generation defers tool_c as well: it is found among the first two.
    const more = [...tools, { name: 'tool_c', description: 'Weather radar images.' }];
    expect((await search({ query: 'radar', tools: more }))[0]).toBe('tool_c');
    // tool_a now does something else: the search follows its new description.
    const renamed = [{ name: 'tool_a', description: 'Weather alerts for a region.' }, tools[1]!];
    expect(await search({ query: 'alerts', tools: renamed })).toEqual(['tool_a']);
    // tool_c is not deferred by this generation: never returned.
    expect(await search({ query: 'radar', tools: renamed })).toEqual([]);
  });

  it('keeps at most 10,000 learned tools: past that, only those of the current generation stay indexed', async () => {
    const asked = new Set<string>();
    const search = createSearchCallback({
      minScore: 0,
      filter: ({ toolId }) => {
        asked.add(toolId);
        return true;
      },
    });
    const set = (prefix: string) =>
      Array.from({ length: 6000 }, (_, i) => ({ name: `${prefix}_${i}`, description: `Weather report ${i}.` }));
    await search({ query: 'weather', tools: set('a') });
    await search({ query: 'weather', tools: set('b') }); // 12,000 tools: the a_* tools are dropped
    asked.clear();
    expect(await search({ query: 'weather report', tools: set('b') })).toHaveLength(10);
    expect([...asked].filter((id) => id.startsWith('a_'))).toEqual([]);
  });

  it('stops at limit', async () => {
    const candidates = Array.from({ length: 8 }, (_, i) => ({
      name: `weather_tool_${i}`,
      description: 'Weather for a city.',
    }));
    const names = await createSearchCallback({ limit: 3, minScore: 0 })({ query: 'weather city', tools: candidates });
    expect(names).toHaveLength(3);
  });
});
