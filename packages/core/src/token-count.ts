import type { JsonSchema } from './types.js';

/** A tool definition as measured by `countToolDefinitionTokens`. */
export interface ToolDefinitionForCount {
  /** The name the model sees. */
  name: string;
  /** The description the model sees; left out of the JSON when absent. */
  description?: string;
  /** The input schema, sent as the function's `parameters`. */
  inputSchema: JsonSchema;
}

/** Size of a set of tool definitions. */
export interface ToolDefinitionSize {
  /** UTF-8 bytes of the serialised definitions, summed. */
  bytes: number;
  /** o200k_base tokens of the serialised definitions, summed. */
  tokens: number;
}

type O200kEncoding = typeof import('gpt-tokenizer/encoding/o200k_base');

let encoding: Promise<O200kEncoding> | undefined;

/**
 * The o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o-series), imported on first use: its ranks are
 * a few MB of JavaScript, so importing `@toolscout/core` does not load them.
 */
function loadEncoding(): Promise<O200kEncoding> {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base').catch((error: unknown) => {
    encoding = undefined;
    throw error;
  });
  return encoding;
}

const utf8 = new TextEncoder();

/** Special tokens such as `<|endoftext|>` are counted as the ordinary text they are in a prompt. */
const asPlainText = { disallowedSpecial: new Set<string>() };

/**
 * The number of o200k_base tokens in `text` (the BPE encoding of OpenAI's current models; other
 * providers' tokenizers differ by some percent, so treat it as a good estimate for them).
 *
 * Async because the encoding is loaded lazily on the first call; later calls do not wait for I/O.
 */
export async function countTokens(text: string): Promise<number> {
  const { countTokens: count } = await loadEncoding();
  return count(text, asPlainText);
}

/**
 * The JSON a provider receives for one tool, by the convention `countToolDefinitionTokens` measures:
 * OpenAI's function-tool shape `{"type":"function","function":{"name","description","parameters"}}`,
 * compact (no spaces), `description` left out when absent.
 */
export function serializeToolDefinition(tool: ToolDefinitionForCount): string {
  return JSON.stringify({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  });
}

/**
 * How much context a set of tool definitions costs: each tool serialised by
 * `serializeToolDefinition` (OpenAI's function-tool JSON), its UTF-8 bytes and o200k_base tokens
 * summed over the tools. Providers render tools into the prompt with their own templates, so the
 * absolute numbers are an estimate of what is billed; comparisons (every tool vs. the loaded ones)
 * hold.
 *
 * Async because the encoding is loaded lazily on the first call (see `countTokens`).
 */
export async function countToolDefinitionTokens(tools: readonly ToolDefinitionForCount[]): Promise<ToolDefinitionSize> {
  const { countTokens: count } = await loadEncoding();
  let bytes = 0;
  let tokens = 0;
  for (const tool of tools) {
    const json = serializeToolDefinition(tool);
    bytes += utf8.encode(json).byteLength;
    tokens += count(json, asPlainText);
  }
  return { bytes, tokens };
}
