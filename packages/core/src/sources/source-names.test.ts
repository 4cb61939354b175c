import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { SourceNames, sourceNameProblem } from './source-names.js';

describe('SourceNames', () => {
  const names = new SourceNames(['github', 'my_files', 'notes-2']);

  it('namespaces names as <source>__<name> and resolves them back', () => {
    expect(names.name('github', 'summarize_pr')).toBe('github__summarize_pr');
    expect(names.resolveName('github__summarize_pr')).toEqual({ source: 'github', name: 'summarize_pr' });
    // The first `__` separates: the item's own name keeps its `__`.
    expect(names.resolveName(names.name('notes-2', 'a__b'))).toEqual({ source: 'notes-2', name: 'a__b' });
    expect(names.resolveName(names.name('github', ''))).toEqual({ source: 'github', name: '' });
  });

  it('namespaces URIs as <source>+<uri> with "_" written "." so the result keeps a valid scheme', () => {
    expect(names.uri('my_files', 'file:///notes.md')).toBe('my.files+file:///notes.md');
    expect(URL.canParse(names.uri('my_files', 'file:///notes.md'))).toBe(true);
    expect(names.resolveUri('my.files+file:///notes.md')).toEqual({ source: 'my_files', name: 'file:///notes.md' });
    // The source's own URI follows the first `+` unchanged, `+` and all.
    const own = 'data://a+b?c=d+e';
    expect(names.resolveUri(names.uri('github', own))).toEqual({ source: 'github', name: own });
    expect(names.uri('github', 'str://{id}')).toBe('github+str://{id}');
  });

  it('resolves nothing for names of no source', () => {
    for (const name of ['summarize_pr', '__x', 'gitlab__x', 'github_x', '', 'my_files+file:///a']) {
      expect(names.resolveName(name), name).toBeUndefined();
    }
    for (const uri of ['file:///a', '+file:///a', 'my_files+file:///a', 'github__x', 'gitlab+x', '']) {
      expect(names.resolveUri(uri), uri).toBeUndefined();
    }
  });

  it('gives a URI without a source to the only source that has URIs, when there is one', () => {
    expect(names.resolveUri('file:///a', ['my_files'])).toEqual({ source: 'my_files', name: 'file:///a' });
    expect(names.resolveUri('file:///a', ['my_files', 'github'])).toBeUndefined();
    expect(names.resolveUri('file:///a', [])).toBeUndefined();
    // A URI with a source's prefix is that source's, whatever has URIs.
    expect(names.resolveUri('github+x://y', ['my_files'])).toEqual({ source: 'github', name: 'x://y' });
    expect(() => names.resolveUri('file:///a', ['gitlab'])).toThrow(/Unknown source "gitlab"/);
  });

  it('keeps names unchanged for one source without a namespace', () => {
    const one = new SourceNames(['only'], false);
    expect(one.name('only', 'p')).toBe('p');
    expect(one.uri('only', 'file:///a')).toBe('file:///a');
    expect(one.resolveName('anything__at all')).toEqual({ source: 'only', name: 'anything__at all' });
    expect(one.resolveUri('only+file:///a')).toEqual({ source: 'only', name: 'only+file:///a' });
  });

  it('refuses a name of a source it does not know, and sources that would make names ambiguous', () => {
    expect(() => names.name('gitlab', 'p')).toThrow(/Unknown source "gitlab": the names know "github", "my_files"/);
    expect(() => new SourceNames([]).uri('a', 'file:///a')).toThrow('Unknown source "a": the names know none.');
    expect(() => names.uri('gitlab', 'file:///a')).toThrow(InvalidArgumentError);
    expect(() => new SourceNames(['a', 'b'], false)).toThrow(/exactly one source.*got 2/);
    expect(() => new SourceNames([], false)).toThrow(/got 0/);
    for (const [source, problem] of [
      ['', /is empty/],
      ['a__b', /contains "__"/],
      ['a_', /ends with "_"/],
      ['a.b', /contains "\."/],
      ['a+b', /contains "\+"/],
    ] as const) {
      expect(sourceNameProblem(source)).toMatch(problem);
      expect(() => new SourceNames([source])).toThrow(InvalidArgumentError);
    }
    expect(sourceNameProblem('my_files-2')).toBeUndefined();
    // Without a namespace the one source's name is never written, so any name does.
    expect(new SourceNames(['a.b'], false).resolveName('x')).toEqual({ source: 'a.b', name: 'x' });
  });

  it('round-trips every name and URI of every source', () => {
    const sources = ['a', 'a_b', 'ab', 'x-1', '_lead'];
    const all = new SourceNames(sources);
    for (const source of sources) {
      for (const own of ['p', 'p__q', 'file:///x+y', 'ui://a_b/c', '']) {
        expect(all.resolveName(all.name(source, own))).toEqual({ source, name: own });
        expect(all.resolveUri(all.uri(source, own))).toEqual({ source, name: own });
      }
    }
  });
});
