import { describe, expect, it } from 'vitest';
import {
  allOfChainSchema,
  allOfChainWithin,
  descriptionWords,
  hostileText,
  madeUpName,
  runHostile,
  sharedSubObjectSchema,
} from './hostile.js';
import { seededRandom } from './stats.js';
import { FIXTURE_DIR } from './test-utils/fixture.js';

describe('hostile inputs', () => {
  const words = descriptionWords([
    { description: 'Get the Weather forecast, by city.' },
    { description: 'get 42 maps' },
  ]);

  it('draws text from the distinct words of the descriptions, to an exact size', () => {
    expect(words).toEqual(['city', 'forecast', 'get', 'maps', 'the', 'weather']);
    const text = hostileText(words, seededRandom(1), { chars: 1000 });
    expect(text).toHaveLength(1000);
    expect(
      text
        .split(' ')
        .slice(0, -1)
        .every((word) => words.includes(word)),
    ).toBe(true);
    expect(hostileText(words, seededRandom(1), { words: 50 }).split(' ')).toHaveLength(50);
    expect(hostileText(words, seededRandom(1), { chars: 1000 })).toBe(text);
  });

  it('makes up tool names of unknown words, to an exact size', () => {
    const name = madeUpName(seededRandom(2), 5000);
    expect(name).toHaveLength(5000);
    expect(
      name
        .split('_')
        .slice(0, -1)
        .every((word) => /^[a-z]{5,9}$/.test(word)),
    ).toBe(true);
  });

  it('makes the deepest allOf/$ref chain that fits a size, and a schema sharing one sub-object per level', () => {
    const { schema, levels } = allOfChainWithin(2048);
    expect(JSON.stringify(schema).length).toBeLessThanOrEqual(2048);
    expect(JSON.stringify(allOfChainSchema(levels + 1)).length).toBeGreaterThan(2048);
    expect((schema.$defs as Record<string, unknown>)[`l${levels}`]).toEqual({
      allOf: [{ $ref: `#/$defs/l${levels - 1}` }, { $ref: `#/$defs/l${levels - 1}` }],
    });
    const dag = sharedSubObjectSchema(3) as { properties: { a: unknown; b: unknown } };
    expect(dag.properties.a).toBe(dag.properties.b);
  });
});

describe('runHostile', () => {
  it('runs a case in a child process against its catalog and reports what came back', async () => {
    const [result] = await runHostile({
      datasets: [FIXTURE_DIR],
      cases: ['description-1mb'],
      tools: 40,
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({
      case: 'description-1mb',
      claimed: true,
      tools: 40,
      status: 'ok',
      input: expect.stringMatching(/^1,048,576 characters, [\d,]+ words$/),
      phases: { add: expect.any(Number), search: expect.any(Number) },
      crashed: false,
      outcome: expect.stringMatching(
        /^search ok \([\d,]+ characters of output\), the tool among the hits; the catalog serves 1,048,576 of 1,048,576 characters$/,
      ),
    });
  });

  it('reports a case still running at the time limit as timed out, with its input and phase', async () => {
    const [result] = await runHostile({
      datasets: [FIXTURE_DIR],
      cases: ['description-160k-words'],
      tools: 40,
      timeoutMs: 1,
    });
    expect(result).toMatchObject({
      case: 'description-160k-words',
      status: 'timed-out',
      timeoutMs: 1,
      input: expect.stringMatching(/, 160,000 words$/),
      during: 'add',
    });
  });
});
