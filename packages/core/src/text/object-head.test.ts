import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { ToolIndex } from '../index/tool-index.js';
import { nameHead } from './name-head.js';
import { objectHead, withoutValues } from './object-head.js';

describe('objectHead', () => {
  it("is the last term of a one-clause request's object, before its context", () => {
    expect(objectHead('List all Event Grid topics in my subscription')).toBe('topic');
    expect(objectHead('Show me the blobs in the blob container <container>')).toBe('blob');
    expect(objectHead('Show me my PostgreSQL servers')).toBe('server');
    expect(objectHead('Delete the firewall rule from server <server>')).toBe('rule');
    expect(objectHead('please create a new storage account using the CLI')).toBe('account');
  });

  it('reads the word after a question word as the object, not as a verb', () => {
    expect(objectHead('What nodepools do I have in cluster <cluster>?')).toBe('nodepool');
    expect(objectHead('What nodepools do I have for cluster <cluster>?')).toBe('cluster'); // ("for" opens no context)
    expect(objectHead('Which databases are in server <server>')).toBe('databas');
  });

  it('leaves out quoted values and <placeholders>', () => {
    expect(objectHead('Get the book "The Curious Case of the Talking Animals"')).toBe('book');
    expect(objectHead("Scan the network 'MyWiFi' every hour")).toBe('hour');
    expect(objectHead('Show me the server <server_name>')).toBe('server');
  });

  it('is undefined for a request of several clauses, of a verb only, or of no words', () => {
    expect(objectHead('List my databases. Then delete the oldest one.')).toBeUndefined();
    expect(objectHead('Deploy')).toBeUndefined();
    expect(objectHead('list in my subscription')).toBeUndefined();
    expect(objectHead('')).toBeUndefined();
    expect(objectHead('?!')).toBeUndefined();
  });
});

describe('withoutValues', () => {
  it('replaces quoted text and <placeholders> by a comma, not apostrophes within words', () => {
    expect(withoutValues(`say "hi there" to <user_name>`)).toBe('say  ,  to  , ');
    expect(withoutValues("don't scan 'MyWiFi' now")).toBe("don't scan  ,  now");
    expect(withoutValues('a “b” c')).toBe('a  ,  c');
    expect(withoutValues('an "unclosed quote and a < b')).toBe('an "unclosed quote and a < b');
  });

  it('takes time linear in the text, even with marks never closed', () => {
    const started = performance.now();
    for (const text of [
      '<'.repeat(200_000),
      '“'.repeat(200_000),
      "x 'y ".repeat(50_000),
      `"${'ab '.repeat(100_000)}`,
    ]) {
      expect(objectHead(`list ${text}`)).not.toBe('never');
    }
    expect(performance.now() - started).toBeLessThan(2_000); // (a backtracking pattern took 73 s on the first)
  });
});

describe('nameHead', () => {
  it("is the term of a name's last word that is not an action word nor a number", () => {
    expect(nameHead('acr_registry_repository_list')).toBe('repositori');
    expect(nameHead('getWeatherForecast')).toBe('forecast');
    expect(nameHead('eventhubs_eventhub_get')).toBe('eventhub');
    expect(nameHead('mysql_server_param_set')).toBe('param');
    expect(nameHead('keyvault_admin_settings_get')).toBe('set'); // ("settings" is a noun here)
    expect(nameHead('list_users_v2')).toBe('v2');
    expect(nameHead('get_list')).toBeUndefined();
    expect(nameHead('')).toBeUndefined();
  });
});

describe('object-head evidence in the ranking', () => {
  // Two siblings alike but for the order of their name's words: only the head tells them apart.
  const catalog = new ToolCatalog([
    { id: 'vault_certificate_issuer_list', description: 'Certificates and issuers of a key vault.' },
    { id: 'vault_issuer_certificate_list', description: 'Certificates and issuers of a key vault.' },
  ]);
  const hits = async (query: string, headWeight?: number) =>
    (await new ToolIndex(catalog, headWeight === undefined ? {} : { ranking: { headWeight } }).search(query)).map(
      (hit) => [hit.id, hit.score],
    );

  it('puts the sibling whose name ends in what the request asks for first, and not with headWeight 0', async () => {
    const certificates = await hits('List the certificates in vault <vault>');
    expect(certificates[0]?.[0]).toBe('vault_issuer_certificate_list');
    expect(certificates[0]?.[1]).toBeGreaterThan(certificates[1]?.[1] as number);
    expect((await hits('Show me the issuers in my key vault'))[0]?.[0]).toBe('vault_certificate_issuer_list');
    const [first, second] = await hits('List the certificates in vault <vault>', 0);
    expect(first?.[1]).toBe(second?.[1]);
  });

  it('follows the catalog: a tool renamed or removed has its new head, or none', async () => {
    const tools = new ToolCatalog([
      { id: 'a', name: 'item_list', description: 'List items and their owners.' },
      { id: 'b', name: 'item_owner_list', description: 'List items and their owners.' },
    ]);
    const index = new ToolIndex(tools);
    expect((await index.search('list the owners'))[0]?.id).toBe('b');
    tools.replace({ id: 'b', name: 'item_owner_list_all', description: 'List items and their owners.' });
    tools.replace({ id: 'a', name: 'owner_list', description: 'List items and their owners.' });
    expect((await index.search('list the owners'))[0]?.id).toBe('a');
  });
});
