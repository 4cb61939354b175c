import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { embedderId } from './embedder-id.js';

describe('embedderId', () => {
  it("takes the id option first, else the host's name for the model", () => {
    expect(embedderId({ id: 'mine-v2' }, 'langchain:OpenAIEmbeddings:small', 'OpenAIEmbeddings')).toBe('mine-v2');
    expect(embedderId({}, 'langchain:OpenAIEmbeddings:small', 'OpenAIEmbeddings')).toBe(
      'langchain:OpenAIEmbeddings:small',
    );
  });

  it('an id is required when the model is not named, and must be a non-empty string', () => {
    const cases: [unknown, string][] = [
      [
        {},
        "This FakeEmbeddings does not name its model, so give the embedder an id (e.g. { id: 'my-model-v1' }): cached vectors are keyed by it.",
      ],
      [{ id: '' }, 'id must be a non-empty string; got a string.'],
      [{ id: 7 }, 'id must be a non-empty string; got a number.'],
    ];
    for (const [options, message] of cases) {
      const error = thrown(() => embedderId(options, undefined, 'FakeEmbeddings'));
      expect(InvalidOptionError.isInstance(error) && error.option).toBe('id');
      expect((error as Error).message).toBe(message);
    }
    const notAnObject = thrown(() => embedderId(null, 'named', 'FakeEmbeddings'));
    expect(InvalidOptionError.isInstance(notAnObject) && notAnObject.option).toBe('options');
  });
});
