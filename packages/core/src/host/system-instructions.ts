/** A system message of the language-model prompt shape (the AI SDK's `SystemModelMessage`). */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/**
 * A step's system messages with the session's `instructions` appended: the host's own first (a
 * string, one system message or a list, as the AI SDK takes `instructions`), then `instructions`
 * as a system message of its own, once. A copy already among the host's is dropped, since a host
 * that carries a step's instructions forward hands back the ones of the step before. The host's
 * as they are when `instructions` is undefined (`instructions: false`).
 */
export function withInstructions<M extends SystemMessage>(
  own: string | M | readonly M[] | undefined,
  instructions: string | undefined,
): string | M | readonly M[] | (M | SystemMessage)[] | undefined {
  if (instructions === undefined) return own;
  const messages = typeof own === 'string' ? [{ role: 'system' as const, content: own }] : [own ?? []].flat();
  const others = messages.filter((message) => message.content !== instructions);
  return [...others, { role: 'system', content: instructions }];
}
