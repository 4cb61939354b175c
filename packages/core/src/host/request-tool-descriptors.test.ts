import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../types.js';
import { RequestToolDescriptors } from './request-tool-descriptors.js';

interface FrameworkTool {
  id?: string;
  description: string;
}

function converter() {
  const converted: string[] = [];
  const descriptors = new RequestToolDescriptors<FrameworkTool>((tool, key): ToolDescriptor<FrameworkTool> => {
    converted.push(key);
    return { id: tool.id ?? key, description: tool.description, tool };
  });
  return { descriptors, converted };
}

describe('RequestToolDescriptors', () => {
  it('converts each tool object once: later steps get the same descriptor objects', () => {
    const { descriptors, converted } = converter();
    const tools = { weather: { id: 'weather', description: 'Weather.' }, mail: { description: 'Mail.' } };
    const first = descriptors.of(tools);
    const second = descriptors.of({ ...tools });
    expect(second).toHaveLength(2);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(converted).toEqual(['weather', 'mail']);
    // A new object (another request's instance) is converted anew.
    descriptors.of({ weather: { id: 'weather', description: 'Weather.' } });
    expect(converted).toEqual(['weather', 'mail', 'weather']);
  });

  it('takes the key as the id or as an alias; of two tools with one id the later wins; skips named keys', () => {
    const { descriptors } = converter();
    const result = descriptors.of(
      {
        createIssue: { id: 'github_create_issue', description: 'Create an issue.' },
        'not a name': { id: 'spaced', description: 'Spaced key.' },
        search_tools: { description: 'A meta-tool name.' },
        old: { id: 'dup', description: 'First.' },
        new: { id: 'dup', description: 'Second.' },
      },
      (key) => key === 'search_tools',
    );
    expect(result.map(({ id, aliases, description }) => ({ id, aliases, description }))).toEqual([
      { id: 'github_create_issue', aliases: ['createIssue'], description: 'Create an issue.' },
      { id: 'spaced', aliases: undefined, description: 'Spaced key.' },
      { id: 'dup', aliases: ['new'], description: 'Second.' },
    ]);
    const again = descriptors.of({ createIssue: result[0]!.tool! });
    expect(again[0]).toBe(result[0]);
  });

  it('lets a bad tool fail with the converter’s error', () => {
    const descriptors = new RequestToolDescriptors<unknown>(() => {
      throw new TypeError('not a tool');
    });
    expect(() => descriptors.of({ bad: 3 })).toThrow('not a tool');
  });
});
