// A misbehaving MCP server for the tests, speaking raw JSON-RPC lines on stdio (no SDK, so it can
// send what the SDK never would). RAW_MODE picks what its tools/list answer is:
// - `ok`: three tools: `big` (its answer to tools/call is one 11 MB line), `garbled` (its answer is
//   JSON but not JSON-RPC) and `small`; a call of the unlisted `shapeless` is answered with JSON-RPC
//   whose result is not the MCP shape (`content` is a string);
// - `deep-input`: those two and `deep`, whose input schema is nested 5000 levels;
// - `deep-output`: one tool whose output schema is nested 5000 levels;
// - `huge`: a tools/list answer of 11 MB;
// - `unreadable`: an answer that is JSON but not JSON-RPC (`result` is a string).
import { createInterface } from 'node:readline';

const mode = process.env.RAW_MODE ?? 'ok';
const ELEVEN_MB = 11 * 1024 * 1024;

function nested(depth: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
}

const object = '{"type":"object"}';
const tool = (name: string, extra = `"inputSchema":${object}`) =>
  `{"name":"${name}","description":"The ${name} tool.",${extra}}`;

function toolsList(id: unknown): string {
  const answer = (tools: string[]) =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[${tools.join(',')}]}}`;
  switch (mode) {
    case 'deep-input':
      return answer([tool('big'), tool('garbled'), tool('small'), tool('deep', `"inputSchema":${nested(5000)}`)]);
    case 'deep-output':
      return answer([tool('deep', `"inputSchema":${object},"outputSchema":${nested(5000)}`)]);
    case 'huge':
      return answer([tool('big', `"inputSchema":${object},"_meta":{"padding":"${'x'.repeat(ELEVEN_MB)}"}`)]);
    case 'unreadable':
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":"not an object"}`;
    default:
      return answer([tool('big'), tool('garbled'), tool('small')]);
  }
}

function answer(message: { id?: unknown; method?: string; params?: { name?: string } }): string | undefined {
  const id = JSON.stringify(message.id);
  switch (message.method) {
    case 'initialize':
      return `{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}}`;
    case 'tools/list':
      return toolsList(message.id);
    case 'tools/call': {
      if (message.params?.name === 'garbled') return `{"jsonrpc":"2.0","id":${id},"result":"garbled"}`;
      if (message.params?.name === 'shapeless') return `{"jsonrpc":"2.0","id":${id},"result":{"content":"none"}}`;
      const text = message.params?.name === 'big' ? 'x'.repeat(ELEVEN_MB) : 'small answer';
      return `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}]}}`;
    }
    case 'ping':
      return `{"jsonrpc":"2.0","id":${id},"result":{}}`;
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const reply = answer(JSON.parse(line));
  if (reply !== undefined) process.stdout.write(`${reply}\n`);
});
