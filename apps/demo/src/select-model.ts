import type { LanguageModel } from 'ai';

/** The model the AI SDK agent runs with. */
export type ModelSelection =
  | { kind: 'fake'; reason: string }
  | { kind: 'openai' | 'anthropic'; modelId: string; apiKey: string };

/** Default model ids when `DEMO_MODEL` is not set. */
export const DEFAULT_MODELS = { openai: 'gpt-5-mini', anthropic: 'claude-sonnet-4-5' } as const;

/**
 * Which model the AI SDK agent uses: a real one when `OPENAI_API_KEY` (first) or `ANTHROPIC_API_KEY`
 * is set, with the model id from `DEMO_MODEL` or the provider's default; otherwise, or with
 * `offline`, the scripted fake model. The other frameworks always use their fake models.
 */
export function selectModel(
  env: Readonly<Record<string, string | undefined>>,
  options: { offline?: boolean } = {},
): ModelSelection {
  if (options.offline) return { kind: 'fake', reason: '--offline' };
  const modelId = env.DEMO_MODEL?.trim() || undefined;
  const openai = env.OPENAI_API_KEY?.trim();
  if (openai) return { kind: 'openai', modelId: modelId ?? DEFAULT_MODELS.openai, apiKey: openai };
  const anthropic = env.ANTHROPIC_API_KEY?.trim();
  if (anthropic) return { kind: 'anthropic', modelId: modelId ?? DEFAULT_MODELS.anthropic, apiKey: anthropic };
  return { kind: 'fake', reason: 'no OPENAI_API_KEY or ANTHROPIC_API_KEY set' };
}

/** How the selection reads in the output. */
export function describeModel(selection: ModelSelection): string {
  return selection.kind === 'fake'
    ? `the scripted fake model (${selection.reason})`
    : `${selection.kind === 'openai' ? 'OpenAI' : 'Anthropic'} ${selection.modelId} (a real model)`;
}

/** The AI SDK model of a real selection. */
export async function createRealModel(selection: Exclude<ModelSelection, { kind: 'fake' }>): Promise<LanguageModel> {
  if (selection.kind === 'openai') {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return createOpenAI({ apiKey: selection.apiKey })(selection.modelId);
  }
  const { createAnthropic } = await import('@ai-sdk/anthropic');
  return createAnthropic({ apiKey: selection.apiKey })(selection.modelId);
}
