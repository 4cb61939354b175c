import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolCatalog, ToolIndex } from '@toolscout/core';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddingFileCache } from './embedding-file-cache.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-embeddings-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hash = 'ab'.repeat(32);

describe('EmbeddingFileCache', () => {
  it('keeps vectors across instances (processes) of the same embedder, and only those', () => {
    const dir = tempDir();
    const first = new EmbeddingFileCache('use-lite-512', 3, dir);
    first.set(`use-lite-512:${hash}`, [0.6, 0.8, 0]);
    first.set(`other:${hash}`, [1, 0, 0]); // another embedder's key: ignored
    first.set(`use-lite-512:${'cd'.repeat(32)}`, [1, 0]); // wrong length: ignored
    const second = new EmbeddingFileCache('use-lite-512', 3, dir);
    expect(second.size).toBe(1);
    expect([...second.get(`use-lite-512:${hash}`)!]).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    expect(second.get(`other:${hash}`)).toBeUndefined();
    expect(new EmbeddingFileCache('other', 3, dir).size).toBe(0);
  });

  it('skips a truncated last record (an interrupted run)', () => {
    const dir = tempDir();
    new EmbeddingFileCache('e', 2, dir).set(`e:${hash}`, [1, 0]);
    appendFileSync(join(dir, 'e-2.bin'), Buffer.alloc(10));
    expect(new EmbeddingFileCache('e', 2, dir).size).toBe(1);
  });

  it('refuses an id that cannot name a file, and a bad dimension count', () => {
    expect(() => new EmbeddingFileCache('../x', 3, tempDir())).toThrow(/unusable embedder id/);
    expect(() => new EmbeddingFileCache('e', 0, tempDir())).toThrow(/positive integer/);
  });

  it('spares a ToolIndex every embedding of a catalog it has seen', async () => {
    const dir = tempDir();
    let embedded = 0;
    const embedder = {
      id: 'letters',
      embed: async (texts: string[]) => {
        embedded += texts.length;
        return texts.map((text) => [text.length, text.split(' ').length, 1]);
      },
    };
    const catalog = new ToolCatalog([
      { id: 'a', description: 'one two' },
      { id: 'b', description: 'three four five' },
    ]);
    await new ToolIndex(catalog, { embedder, embeddingCache: new EmbeddingFileCache('letters', 3, dir) }).flush();
    expect(embedded).toBe(2);
    const again = new ToolIndex(catalog, { embedder, embeddingCache: new EmbeddingFileCache('letters', 3, dir) });
    await again.flush();
    expect(embedded).toBe(2);
  });
});
