import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { answer, callTool, ScriptedModel } from '../testing.js';

const tools = {
  echo: tool({
    description: 'Echo the text.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => ({ text }),
  }),
  fail: tool({
    description: 'Always fails.',
    inputSchema: z.object({ reason: z.string().optional() }),
    execute: async (): Promise<string> => {
      throw new Error('broken');
    },
  }),
};

describe('ScriptedModel', () => {
  it.each(['generate', 'stream'] as const)(
    'plays its script in the AI SDK loop (%s) and records what it saw',
    async (how) => {
      const model = new ScriptedModel([callTool('echo', { text: 'hi' }), callTool('fail'), answer('bye')]);
      const options = { model: model.mock, tools, stopWhen: stepCountIs(5), prompt: 'go' };
      const text = how === 'generate' ? (await generateText(options)).text : await streamText(options).text;
      expect(text).toBe('bye');
      expect(model.offered()).toEqual([
        ['echo', 'fail'],
        ['echo', 'fail'],
        ['echo', 'fail'],
      ]);
      expect(model.descriptions(0)).toEqual({ echo: 'Echo the text.', fail: 'Always fails.' });
      expect(model.results()).toMatchObject([
        { toolName: 'echo', output: { text: 'hi' }, isError: false },
        { toolName: 'fail', output: 'Error: broken', isError: true },
      ]);
      expect(model.lastToolResults(2)).toMatchObject([{ toolName: 'fail', isError: true }]);
      expect(model.remaining).toBe(0);
    },
  );

  it('fails a call past its script, or answers when told to', async () => {
    const strict = new ScriptedModel([]);
    await expect(generateText({ model: strict.mock, prompt: 'go' })).rejects.toThrow(/script has 0 actions/);
    const lenient = new ScriptedModel([], { afterScript: 'answer', callIdPrefix: 'x' });
    expect((await generateText({ model: lenient.mock, prompt: 'go' })).text).toBe('Done.');
  });
});
