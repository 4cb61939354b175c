import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { toolContentHash } from './tool-document.js';

describe('toolContentHash', () => {
  it("hashes a catalog tool's text once (its tools are frozen), and a tool with other text apart", () => {
    const catalog = new ToolCatalog([{ id: 'weather', description: 'Forecast for a city' }]);
    const tool = catalog.get('weather')!;
    let reads = 0;
    // The same frozen tool, counting how often its description is read.
    const counted = Object.freeze(
      Object.defineProperty({ ...tool }, 'description', {
        get: () => {
          reads += 1;
          return tool.description;
        },
      }),
    );
    const hash = toolContentHash(counted);
    expect(toolContentHash(counted)).toBe(hash);
    expect(reads).toBe(1);
    expect(toolContentHash(tool)).toBe(hash);
    const other = new ToolCatalog([{ id: 'weather', description: 'Forecast for a town' }]).get('weather')!;
    expect(toolContentHash(other)).not.toBe(hash);
  });

  it('hashes a tool that is not frozen every time (its text may change)', () => {
    const tool = { ...new ToolCatalog([{ id: 'a', description: 'one' }]).get('a')! };
    const before = toolContentHash(tool);
    tool.description = 'two';
    expect(toolContentHash(tool)).not.toBe(before);
  });
});
