import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, stepCountIs, toolSearch } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type Dataset, datasetsRoot, loadDataset } from '../datasets.js';
import { FIXTURE_DIR } from '../test-utils/fixture.js';
import { AI_SDK_SEARCH_TOOL, aiSdkEngine, toAiSdkToolSet } from './ai-sdk.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model that calls the search tool with `query` at its first step and answers with text at its second. */
function searchingModel(query: string): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<GenerateResult> => {
      step += 1;
      if (step === 1) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'search-1',
              toolName: AI_SDK_SEARCH_TOOL,
              input: JSON.stringify({ query }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool-calls' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: 'Done.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

const dataset = loadDataset(FIXTURE_DIR);
const LIMIT = 10;

/**
 * Runs `queries` through the engine and through full generateText runs with a mock model calling the
 * search tool; checks both rank the same tools in the same order. Returns how many hits were compared.
 */
async function compareWithGenerateText(source: Dataset, queries: readonly string[]): Promise<number> {
  const engine = await (await aiSdkEngine.prepare(source.tools)).build({ limit: LIMIT });
  const { tools: deferred, idOf } = toAiSdkToolSet(source.tools, LIMIT);
  let compared = 0;
  for (const query of queries) {
    const model = searchingModel(query);
    const result = await generateText({
      model,
      prompt: query,
      stopWhen: stepCountIs(2),
      tools: { ...deferred, [AI_SDK_SEARCH_TOOL]: toolSearch({ maxResults: LIMIT }) },
    });
    const [searchResult] = result.steps[0]!.toolResults;
    expect(searchResult?.toolName).toBe(AI_SDK_SEARCH_TOOL);
    const discovered = (searchResult!.output as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    const found = discovered.map((name) => idOf.get(name));
    expect(await engine.search(query)).toEqual(found);
    // The generation bound the search for real: what it found is offered at the next step, nothing else.
    const offered = (model.doGenerateCalls[1]?.tools ?? []).map((tool) => tool.name).sort();
    expect(model.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toEqual([AI_SDK_SEARCH_TOOL]);
    expect(offered).toEqual([AI_SDK_SEARCH_TOOL, ...discovered].sort());
    compared += found.length;
  }
  return compared;
}

describe('the ai-sdk engine', () => {
  it("ranks exactly as the AI SDK's toolSearch does inside a full generateText run (the one-time equality check)", async () => {
    // Also a query no tool matches, and one the default search ranks with ties (kept in set order).
    const queries = [...dataset.queries.map((query) => query.query), 'xylophone quartz', 'the'];
    expect(await compareWithGenerateText(dataset, queries)).toBeGreaterThan(10);
  });

  const toolbench = join(datasetsRoot(), 'toolbench');
  if (!existsSync(join(toolbench, 'tools.jsonl'))) {
    console.info(
      `the real-catalog equality check skipped: ${toolbench} is absent (shared/ must sit beside the repository)`,
    );
  }
  it.skipIf(!existsSync(join(toolbench, 'tools.jsonl')))(
    'does so on a real catalog too (toolbench, 20 queries)',
    async () => {
      const real = loadDataset(toolbench);
      const queries = real.queries.filter((_, i) => i % Math.floor(real.queries.length / 20) === 0).slice(0, 20);
      expect(
        await compareWithGenerateText(
          real,
          queries.map((query) => query.query),
        ),
      ).toBeGreaterThan(100);
    },
    60_000, // 20 generations over 2,479 tools: seconds on a loaded 2-core machine
  );

  it('maps every provider-safe tool name back to its dataset id', () => {
    const { tools, idOf } = toAiSdkToolSet(dataset.tools, LIMIT);
    expect(Object.keys(tools)).toHaveLength(dataset.tools.length + 1);
    expect([...idOf.values()].sort()).toEqual(dataset.tools.map((tool) => tool.id).sort());
    for (const name of idOf.keys()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('renames a catalog tool named like the search tool (see reserved-names.test.ts)', () => {
    const { idOf } = toAiSdkToolSet([{ id: AI_SDK_SEARCH_TOOL, description: 'clash' }], LIMIT);
    expect([...idOf]).toEqual([['tool_search_2', AI_SDK_SEARCH_TOOL]]);
  });
});
