import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { InvalidOptionError } from '../errors.js';
import { InMemoryLoadedToolStore } from '../stores/in-memory-store.js';
import { thrown } from '../test-utils/thrown.js';
import type { ToolDescriptor } from '../types.js';
import { loadedStateRule } from './host-options.js';
import { type HostSessionSpec, hostSession } from './host-session.js';

/** A framework's tool as a test stands it in. */
interface FrameworkTool {
  frameworkName: string;
  about: string;
}

const converted: unknown[][] = [];
const SPEC: HostSessionSpec<FrameworkTool> = {
  usage: 'createX takes one options object, { catalog, ... }',
  rules: { state: loadedStateRule('framework-state'), label: 'non-empty string' },
  convert: (tools) => {
    converted.push([...tools]);
    return [...tools].map((tool) =>
      'frameworkName' in (tool as object)
        ? {
            id: (tool as FrameworkTool).frameworkName,
            description: (tool as FrameworkTool).about,
            tool: tool as FrameworkTool,
          }
        : (tool as ToolDescriptor<FrameworkTool>),
    );
  },
  states: { 'framework-state': 'conversation' },
};

const weather: FrameworkTool = { frameworkName: 'get_weather', about: 'Current weather for a city' };
const clock: FrameworkTool = { frameworkName: 'get_time', about: 'The time in a city' };

describe('hostSession', () => {
  it("converts the framework's tools in catalog and tools, and hands the session the options that are core's", async () => {
    converted.length = 0;
    const session = hostSession(
      { catalog: [weather, { id: 'send_email' }], tools: [clock], label: 'x', mode: 'catalog' },
      SPEC,
    );
    expect(converted).toEqual([[weather, { id: 'send_email' }], [clock]]);
    expect(session.catalog.get('get_weather')?.tool).toBe(weather);
    expect(session.directTools.map((tool) => tool.id)).toEqual(['get_time']);
    expect(session.mode).toBe('catalog');
    expect('label' in session.options).toBe(false);
    session.dispose();
  });

  it("follows a ToolCatalog as it is, and maps the host's own state strategy to core's", async () => {
    const catalog = new ToolCatalog([{ id: 'get_weather' }]);
    const session = hostSession({ catalog, state: 'framework-state' }, SPEC);
    expect(session.catalog).toBe(catalog);
    expect(session.options.state).toBe('conversation');
    // `conversation`: a thread's loads come from its messages, not from a store.
    const step = await session.prepareStep({ threadId: 't', loaded: ['get_weather'] });
    expect(step.toolNames).toContain('get_weather');
    const store = new InMemoryLoadedToolStore();
    expect(hostSession({ catalog: [], state: store }, SPEC).options.state).toBe(store);
    expect(hostSession({ catalog: [], state: 'memory' }, SPEC).options.state).toBe('memory');
    store.dispose();
  });

  it("names the bad option: the host's own first, then the session's", () => {
    const cases: [unknown, string][] = [
      [undefined, 'options'],
      [{ catalog: [], state: 'disk' }, 'state'],
      [{ catalog: [], label: '' }, 'label'],
      [{ catalog: 42 }, 'catalog'],
      [{}, 'catalog'],
      [{ catalog: [], tools: 'clock' }, 'tools'],
      [{ catalog: [], mode: 'everything' }, 'mode'],
    ];
    for (const [options, option] of cases) {
      const error = thrown(() => hostSession(options, SPEC));
      expect(InvalidOptionError.isInstance(error) && error.option, String(error)).toBe(option);
    }
  });
});
