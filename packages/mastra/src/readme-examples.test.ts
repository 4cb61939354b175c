// The README's preselect examples, as written there, in a real Mastra agent with a scripted model.
import { Agent } from '@mastra/core/agent';
import { answer } from '@toolscout/conformance';
import { describe, expect, it } from 'vitest';
import { mastraModel, runTurn, scriptedModel } from '../test-utils/mastra-harness.js';
import { createMastraTools } from '../test-utils/mastra-tools.js';
import { ToolSearchProcessor } from './tool-search-processor.js';

const { tools } = createMastraTools();

async function firstStepTools(processor: ToolSearchProcessor, prompt: string): Promise<string[]> {
  const scripted = scriptedModel();
  const agent = new Agent({
    id: 'readme',
    name: 'README',
    instructions: 'Use tools.',
    model: mastraModel(scripted),
    inputProcessors: [processor],
  });
  await runTurn(agent, scripted, { prompt, script: [answer()] });
  return scripted.offered()[0]!;
}

describe('README: preselect', () => {
  it('by search', async () => {
    const toolSearch = new ToolSearchProcessor({
      tools,
      preselect: { minScore: 0.6, limit: 3 }, // or `true` for these defaults
    });
    const offered = await firstStepTools(toolSearch, 'Convert 10 euros to dollars at the current exchange rate');
    expect(offered).toEqual(['search_tools', 'load_tool', 'convert_currency']);
  });

  it('by a selector of your own', async () => {
    const classified = new ToolSearchProcessor({
      tools,
      preselect: { select: async (message, { search }) => (await search(message, 2)).map((hit) => hit.tool.id) },
    });
    const offered = await firstStepTools(classified, 'Send an email message to Bob');
    expect(offered.slice(0, 3)).toEqual(['search_tools', 'load_tool', 'send_email']);
  });
});
