import { describe, expect, it } from 'vitest';
import { InvalidToolError } from '../errors.js';
import { thrown } from '../test-utils/thrown.js';
import { descriptorsOfList } from './tool-list.js';

interface FrameworkTool {
  frameworkName: string;
}
const isTool = (value: unknown): value is FrameworkTool =>
  typeof value === 'object' && value !== null && 'frameworkName' in value;
const convert = (tool: FrameworkTool) => ({ id: tool.frameworkName, description: 'converted', tool });

describe('descriptorsOfList', () => {
  it("converts the framework's tools and passes descriptors through, in order, from any iterable", () => {
    const descriptor = { id: 'plain', description: 'a descriptor' };
    const weather = { frameworkName: 'get_weather' };
    expect(descriptorsOfList([weather, descriptor], 'X tool', isTool, convert)).toEqual([
      { id: 'get_weather', description: 'converted', tool: weather },
      descriptor,
    ]);
    expect(descriptorsOfList(new Set([descriptor]), 'X tool', isTool, convert)).toEqual([descriptor]);
  });

  it('refuses what is not iterable with an InvalidToolError naming the kind and the value', () => {
    const error = thrown(() => descriptorsOfList({ get_weather: {} }, 'X tool', isTool, convert));
    expect(InvalidToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Expected an iterable of X tools or tool descriptors, got an object');
  });
});
