import type { McpSession } from './demo-catalog.js';

/** At most this many characters of a text are shown. */
const SHOWN = 70;

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line;
}

/**
 * What the MCP agent's gateway session offers besides tools, shown by using it: the resources and
 * prompts of the servers behind the gateway, listed under their gateway names (`<server>+<uri>`,
 * `<server>__<prompt>`), one resource read and one prompt fetched through the same session. Nothing
 * when the session offers neither (a catalog file, served without servers behind it).
 */
export async function passThroughLines(session: McpSession, signal?: AbortSignal): Promise<string[]> {
  const { client } = session;
  const offers = client.getServerCapabilities() ?? {};
  const lines: string[] = [];
  if (offers.resources) {
    const { resources } = await client.listResources(undefined, { signal });
    const resource = resources.find((r) => r.mimeType?.startsWith('text/')) ?? resources[0];
    lines.push(`resources/list: ${resources.length} on the first page, e.g. ${resource?.uri ?? '(none)'}`);
    if (resource) {
      const { contents } = await client.readResource({ uri: resource.uri }, { signal });
      const [first] = contents;
      const text = first && 'text' in first ? first.text : `${first?.mimeType ?? 'binary'} data`;
      lines.push(`resources/read ${resource.uri}: "${shorten(String(text))}"`);
    }
  }
  if (offers.prompts) {
    const { prompts } = await client.listPrompts(undefined, { signal });
    const prompt = prompts.find((p) => !p.arguments?.some((argument) => argument.required)) ?? prompts[0];
    lines.push(`prompts/list: ${prompts.map((p) => p.name).join(', ') || '(none)'}`);
    if (prompt) {
      const { messages } = await client.getPrompt({ name: prompt.name }, { signal });
      const content = messages[0]?.content;
      const text = content?.type === 'text' ? content.text : (content?.type ?? 'no message');
      lines.push(`prompts/get ${prompt.name}: "${shorten(text)}"`);
    }
  }
  return lines.length === 0
    ? []
    : ['Besides tools, through the same gateway session:', ...lines.map((line) => `  ${line}`)];
}
