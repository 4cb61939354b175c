// `searchResources`: the servers' resources, templates and prompts found by a search_resources tool.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../../mcp/test-utils/mcp-harness.js';
import { waitFor } from '../../mcp/test-utils/wait.js';
import { FIXTURE_SERVER, nodeServer } from '../test-utils/gateway-process.js';
import { silentLogger } from './logger.js';
import { McpGateway } from './mcp-gateway.js';
import type { OfferHit } from './offer-index.js';

const fixture = (label: string) => nodeServer(FIXTURE_SERVER, ['--label', label, '--extras']);

describe('searchResources: resources and prompts found by search_resources', { timeout: 30_000 }, () => {
  let gateway: McpGateway;
  let client: Client;

  beforeAll(async () => {
    gateway = new McpGateway({
      servers: { a: fixture('A'), b: fixture('B') },
      searchResources: true,
      pinned: ['b__add_prompt'],
      logger: silentLogger,
    });
    await gateway.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide);
    client = new Client({ name: 'search-resources-test', version: '1.0.0' });
    await client.connect(clientSide);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  async function search(args: Record<string, unknown>): Promise<OfferHit[]> {
    const result = (await client.callTool({ name: 'search_resources', arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { results: OfferHit[] }).results;
  }

  it('offers search_resources and read_resource at every step, beside the meta-tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'search_resources',
      'read_resource',
      'b__add_prompt',
    ]);
  });

  it('finds a resource of either server by its title and description, and reads it', async () => {
    // start() resolves once every server's entries are indexed.
    const hits = await search({ query: 'notes of fixture B', kind: 'resource' });
    expect(
      hits
        .slice(0, 2)
        .map((hit) => hit.uri)
        .sort(),
    ).toEqual(['a+fixture://A/notes', 'b+fixture://B/notes']);
    const notesOfB = hits.find((hit) => hit.server === 'b')!;
    expect(notesOfB).toMatchObject({ kind: 'resource', title: 'Notes of B', mimeType: 'text/plain' });
    expect(hits.every((hit) => hit.kind !== 'prompt')).toBe(true);
    const read = (await client.callTool({ name: 'read_resource', arguments: { uri: notesOfB.uri } })) as CallToolResult;
    expect(JSON.parse(resultText(read))).toMatchObject({
      contents: [{ uri: 'b+fixture://B/notes', text: 'notes of B' }],
    });
    const templates = await search({ query: 'item by id', kind: 'resource' });
    expect(templates.map((hit) => hit.uriTemplate)).toContain('a+fixture://A/items/{id}');
  });

  it('finds prompts, follows prompts/list_changed, and answers a bad URI with a tool error', async () => {
    const greetings = await search({ query: 'greet someone by name', kind: 'prompt' });
    expect(greetings.map((hit) => hit.name).sort()).toEqual(['a__greet', 'b__greet']);
    expect(greetings[0]?.arguments).toEqual([{ name: 'name', required: true }]);
    await client.callTool({ name: 'b__add_prompt', arguments: { name: 'farewell' } });
    const found = await waitFor(
      async () => {
        const hits = await search({ query: 'farewell', kind: 'prompt' });
        return hits.length > 0 && hits;
      },
      10_000,
      'the new prompt to be indexed',
    );
    expect(found[0]).toMatchObject({ kind: 'prompt', name: 'b__farewell' });
    const bad = (await client.callTool({ name: 'read_resource', arguments: { uri: 'nowhere' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toContain('Unknown resource "nowhere"');
  });

  it('costs a fixed number of tokens per step', async () => {
    const plain = new McpGateway({ servers: {}, logger: silentLogger });
    const withSearch = new McpGateway({ servers: {}, searchResources: true, logger: silentLogger });
    try {
      const tokens = async (g: McpGateway) =>
        (await g.searchServer.session.measureStep(await g.searchServer.session.prepareStep())).offered.tokens;
      const [without, withIt] = [await tokens(plain), await tokens(withSearch)];
      console.log(`meta-tools: ${without} tokens; with search_resources and read_resource: ${withIt} tokens`);
      expect(withIt - without).toBeGreaterThan(0);
      expect(withIt - without).toBeLessThan(250);
    } finally {
      await plain.close();
      await withSearch.close();
    }
  });
});
