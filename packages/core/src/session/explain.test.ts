// `search.explain`: why each search_tools result matched, in what the model reads (off by default).
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import type { ToolDescriptor } from '../types.js';
import type { ToolSearchSessionOptions } from './session-options.js';
import type { ToolCallOutcome } from './step-types.js';
import { ToolSearchSession } from './tool-search-session.js';

const catalog: ToolDescriptor[] = [
  {
    id: 'get_forecast',
    description: 'Get a multi-day weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
  },
  { id: 'send_email', description: 'Send an email to a recipient.' },
];

type Results = { results: Record<string, unknown>[]; message: string };

function resultsOf(outcome: ToolCallOutcome): Record<string, unknown>[] {
  expect(outcome.ok).toBe(true);
  return (outcome as { output: Results }).output.results;
}

async function search(query: string, options: Partial<ToolSearchSessionOptions> = {}) {
  const session = new ToolSearchSession({ catalog, ...options });
  const step = await session.prepareStep({ threadId: 't' });
  return resultsOf(await step.execute('search_tools', { query }));
}

describe('search.explain', () => {
  it('is off by default: results are { name, description, score } only', async () => {
    const results = await search('weather forecast for a city');
    expect(results.map((result) => Object.keys(result))).toEqual([['name', 'description', 'score']]);
  });

  it('on, each result says which query words it matched and where, in one line', async () => {
    const results = await search('weather forecast for a city', { search: { explain: true } });
    expect(results).toEqual([
      {
        name: 'get_forecast',
        description: 'Get a multi-day weather forecast for a city.',
        score: expect.any(Number),
        why: 'name: forecast; description: weather, city, "weather forecast", "forecast city"',
      },
    ]);
    const typo = await search('recipeint', { search: { explain: true } });
    expect(typo).toMatchObject([{ name: 'send_email', why: 'description: recipeint (typo: recipient)' }]);
  });

  it('explains auto-load results and a request’s own tools alike', async () => {
    const loaded = await search('send an email', { mode: 'auto-load', search: { explain: true } });
    expect(loaded).toMatchObject([{ name: 'send_email', why: 'name: send, email, "send email"' }]);
    const session = new ToolSearchSession({ catalog, search: { explain: true } });
    const own: ToolDescriptor = { id: 'create_issue', description: 'Create an issue in the tracker.' };
    const step = await session.prepareStep({ threadId: 't', context: {}, tools: [own] });
    expect(resultsOf(await step.execute('search_tools', { query: 'open an issue' }))).toMatchObject([
      { name: 'create_issue', why: 'name: issue' },
    ]);
  });

  it('session.search returns the reasons too', async () => {
    const session = new ToolSearchSession({ catalog, search: { explain: true } });
    const [hit] = await session.search('forecast');
    expect(hit?.reasons).toEqual([
      { query: 'forecast', matched: 'forecast', field: 'name', how: 'exact' },
      { query: 'forecast', matched: 'forecast', field: 'description', how: 'exact' },
    ]);
    const [plain] = await new ToolSearchSession({ catalog }).search('forecast');
    expect(plain).not.toHaveProperty('reasons');
  });

  it('refuses a value that is not a boolean, naming the option', () => {
    const make = () => new ToolSearchSession({ catalog, search: { explain: 'yes' as unknown as boolean } });
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow('search.explain must be true or false; got "yes".');
  });
});
