import type { ConversationEntry } from '../session/conversation.js';
import { isRecord } from '../values.js';

/**
 * A tool result's output part as the model saw it: the value of `json` and `text` outputs, the text of
 * `content` outputs, and `{ error }` / `{ denied }` for errors and denials (which never count as a load).
 */
export function toolOutputValue(output: unknown): unknown {
  if (!isRecord(output)) return output;
  if (output.type === 'json' || output.type === 'text') return output.value;
  if (output.type === 'error-text' || output.type === 'error-json') return { error: output.value };
  if (output.type === 'execution-denied') return { denied: true, reason: output.reason };
  if (output.type !== 'content') return output;
  if (!Array.isArray(output.value)) return output.value;
  return output.value.flatMap((part) => (isRecord(part) && part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * The tool calls and results of messages whose content is a list of typed parts (the language-model
 * prompt shape: `{ role: 'assistant' | 'tool', content: [{ type: 'tool-call' | 'tool-result',
 * toolCallId, toolName, input | output }] }`), oldest first: `tool-call` parts of assistant messages,
 * `tool-result` parts of tool messages and of assistant messages (provider-executed tools), each
 * output read by {@link toolOutputValue}. Anything else, or anything malformed, is skipped.
 */
export function conversationFromContentParts(messages: unknown): ConversationEntry[] {
  const entries: ConversationEntry[] = [];
  if (!Array.isArray(messages)) return entries;
  for (const message of messages) {
    if (!isRecord(message) || (message.role !== 'assistant' && message.role !== 'tool')) continue;
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      if (!isRecord(part) || typeof part.toolName !== 'string') continue;
      const toolCallId = typeof part.toolCallId === 'string' ? part.toolCallId : undefined;
      if (part.type === 'tool-call') {
        entries.push({ type: 'tool-call', toolCallId, toolName: part.toolName, input: part.input });
      } else if (part.type === 'tool-result') {
        entries.push({
          type: 'tool-result',
          toolCallId,
          toolName: part.toolName,
          output: toolOutputValue(part.output),
        });
      }
    }
  }
  return entries;
}
