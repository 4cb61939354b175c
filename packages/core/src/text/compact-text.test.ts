import { describe, expect, it } from 'vitest';
import { compactText, firstSentence } from './compact-text.js';

describe('compactText', () => {
  it('strips control and invisible characters and folds white space', () => {
    expect(compactText('Get\u0000 the\u0007 weather\n\n\tnow\u200B.', 0)).toBe('Get the weather now.');
  });

  it('cuts at a word boundary within the budget, ellipsis included', () => {
    const out = compactText('Search the public web for pages about a topic and return links', 30);
    expect(out.length).toBeLessThanOrEqual(30);
    expect(out).toBe('Search the public web for…');
  });

  it('cuts inside a single very long word rather than returning almost nothing', () => {
    const out = compactText(`${'x'.repeat(50)} tail`, 20);
    expect(out).toHaveLength(20);
    expect(out.endsWith('…')).toBe(true);
  });

  it('keeps short text and empty input as they are', () => {
    expect(compactText('Short.', 100)).toBe('Short.');
    expect(compactText(undefined, 10)).toBe('');
  });
});

describe('firstSentence', () => {
  it('takes the first sentence only', () => {
    expect(firstSentence('Sends an email. Supports attachments. And more.', 100)).toBe('Sends an email.');
    expect(firstSentence('No period here', 100)).toBe('No period here');
    expect(firstSentence('Version 2.5 of the API. Next.', 100)).toBe('Version 2.5 of the API.');
  });
});
