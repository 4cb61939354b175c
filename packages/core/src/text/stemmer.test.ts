import { describe, expect, it } from 'vitest';
import { stem } from './stemmer.js';

/** Asserts that every word in a group gets one stem, and returns it. */
function sameStem(...words: string[]): string {
  const stems = new Set(words.map(stem));
  expect(stems.size, `${words.join(', ')} → ${[...stems].join(', ')}`).toBe(1);
  return [...stems][0]!;
}

describe('stem', () => {
  it('merges plurals with their singular', () => {
    sameStem('song', 'songs');
    sameStem('country', 'countries');
    sameStem('box', 'boxes');
    sameStem('match', 'matches');
    sameStem('address', 'addresses');
    sameStem('image', 'images');
    sameStem('movie', 'movies');
    sameStem('status', 'statuses');
  });

  it('merges past tense and gerund with the base verb', () => {
    sameStem('stream', 'streams', 'streaming', 'streamed');
    sameStem('create', 'creates', 'created', 'creating');
    sameStem('ship', 'shipped', 'shipping');
    sameStem('rate', 'rated', 'rating');
    sameStem('schedule', 'scheduled', 'scheduling');
    sameStem('copy', 'copied', 'copies');
    sameStem('agree', 'agreed');
  });

  it('keeps apart words that only look inflected', () => {
    expect(stem('status')).toBe('status');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('news')).toBe('news');
    expect(stem('speed')).toBe('speed');
    expect(stem('string')).toBe('string');
    expect(stem('thing')).toBe('thing');
    expect(stem('news')).not.toBe(stem('new'));
  });

  it('leaves derivations alone (light stemming)', () => {
    expect(stem('translation')).not.toBe(stem('translate'));
    expect(stem('information')).toBe('information');
  });

  it('does not touch short, non-ASCII, upper-case or numeric words', () => {
    expect(stem('is')).toBe('is');
    expect(stem('café')).toBe('café');
    expect(stem('Songs')).toBe('Songs');
    expect(stem('2024s')).toBe('2024s');
    expect(stem('погода')).toBe('погода');
  });
});
