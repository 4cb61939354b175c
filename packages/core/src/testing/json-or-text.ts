/** A tool result's text as the model reads it: the JSON value it encodes, or the text itself. */
export function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
