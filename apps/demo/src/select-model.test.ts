import { describe, expect, it } from 'vitest';
import { createRealModel, DEFAULT_MODELS, describeModel, selectModel } from './select-model.js';

describe('selectModel', () => {
  it('picks the fake model without API keys', () => {
    const selection = selectModel({});
    expect(selection.kind).toBe('fake');
    expect(describeModel(selection)).toContain('no OPENAI_API_KEY or ANTHROPIC_API_KEY');
    expect(selectModel({ OPENAI_API_KEY: '  ', ANTHROPIC_API_KEY: '' }).kind).toBe('fake');
  });

  it('picks OpenAI with OPENAI_API_KEY, first, with its default model or DEMO_MODEL', () => {
    expect(selectModel({ OPENAI_API_KEY: 'sk-1' })).toEqual({
      kind: 'openai',
      modelId: DEFAULT_MODELS.openai,
      apiKey: 'sk-1',
    });
    expect(selectModel({ OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'a-1', DEMO_MODEL: 'gpt-5' })).toEqual({
      kind: 'openai',
      modelId: 'gpt-5',
      apiKey: 'sk-1',
    });
  });

  it('picks Anthropic with ANTHROPIC_API_KEY alone', () => {
    expect(selectModel({ ANTHROPIC_API_KEY: 'a-1' })).toEqual({
      kind: 'anthropic',
      modelId: DEFAULT_MODELS.anthropic,
      apiKey: 'a-1',
    });
  });

  it('keeps the fake model with --offline, keys or not', () => {
    expect(selectModel({ OPENAI_API_KEY: 'sk-1' }, { offline: true })).toEqual({ kind: 'fake', reason: '--offline' });
  });

  it("builds the provider's AI SDK model for a real selection, without calling it", async () => {
    const openai = await createRealModel({ kind: 'openai', modelId: 'gpt-5-mini', apiKey: 'sk-test' });
    const anthropic = await createRealModel({ kind: 'anthropic', modelId: 'claude-sonnet-4-5', apiKey: 'a-test' });
    expect(openai).toMatchObject({ modelId: 'gpt-5-mini', specificationVersion: 'v4' });
    expect(anthropic).toMatchObject({ modelId: 'claude-sonnet-4-5', specificationVersion: 'v4' });
    expect(String((openai as { provider: string }).provider)).toContain('openai');
    expect(String((anthropic as { provider: string }).provider)).toContain('anthropic');
  });
});
