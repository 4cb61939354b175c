// "Did you mean" suggestions for a tool name the catalog does not have (issue #20, found 9): the
// names that share the longest start with the mistyped name come first.
import { describe, expect, it } from 'vitest';
import { editDistance } from '../text/edit-distance.js';
import type { ToolDescriptor } from '../types.js';
import { orderSuggestions } from './suggestion-order.js';
import { ToolSearchSession } from './tool-search-session.js';

/** Tools of the MCP reference server (`@modelcontextprotocol/server-everything`), as the gateway imports them. */
const everything: ToolDescriptor[] = (
  [
    ['echo', 'Echoes back the input string'],
    ['get-annotated-message', 'Demonstrates how annotations can be used to provide metadata about content.'],
    ['get-env', 'Returns all environment variables, helpful for debugging MCP server configuration'],
    ['get-resource-links', 'Returns up to ten resource links that reference different types of resources'],
    ['get-resource-reference', 'Returns a resource reference that can be used by MCP clients'],
    ['get-structured-content', 'Returns structured content along with an output schema for client data validation'],
    ['get-sum', 'Returns the sum of two numbers'],
    ['get-tiny-image', 'Returns a tiny MCP logo image.'],
    ['gzip-file-as-resource', 'Compresses a single file using gzip compression.'],
    ['toggle-simulated-logging', 'Toggles simulated, random-leveled logging on or off.'],
    ['toggle-subscriber-updates', 'Toggles simulated resource subscription updates on or off.'],
    ['trigger-long-running-operation', 'Demonstrates a long running operation with progress updates.'],
    ['get-roots-list', 'Lists the current MCP roots provided by the client.'],
    ['trigger-elicitation-request', 'Trigger a Request from the Server for User Elicitation'],
    ['trigger-url-elicitation', 'Trigger a URL elicitation so the client can direct the user to a browser flow.'],
    ['trigger-sampling-request', 'Trigger a Request from the Server for LLM Sampling'],
  ] as const
).map(([name, description]) => ({ id: `everything__${name}`, name, description, source: 'everything' }));

async function loadMessage(toolName: string): Promise<string> {
  const session = new ToolSearchSession({ catalog: everything });
  const step = await session.prepareStep({ threadId: 't' });
  const outcome = await step.execute('load_tool', { toolName });
  session.dispose();
  return (outcome as { output: { message: string } }).output.message;
}

describe('did-you-mean suggestions', () => {
  it('lists a close misspelling of the name first', async () => {
    const message = await loadMessage('everything__get-summ');
    expect(message).toMatch(/Did you mean: everything__get-sum, /);
    const suggested = message.slice(message.indexOf('Did you mean: ') + 14, -1).split(', ');
    expect(suggested).toHaveLength(3);
    expect(suggested.indexOf('everything__get-sum')).toBeLessThan(suggested.indexOf('everything__get-env') >>> 0);
  });

  it('still ranks by the search when no name shares more than a few characters', async () => {
    const message = await loadMessage('tiny_image');
    expect(message).toMatch(/Did you mean: everything__get-tiny-image[,?]/);
  });
});

describe('orderSuggestions', () => {
  it('puts close misspellings first (fewest edits), the rest in the search order', () => {
    const found = ['b__get-env', 'a__other', 'b__get-sum', 'b__get-summary'];
    // 1 edit from b__get-summary, 3 from b__get-sum (within a quarter of 13 characters), 4 from b__get-env.
    expect(orderSuggestions('b__get-summar', found, (n) => n, 3)).toEqual([
      'b__get-summary',
      'b__get-sum',
      'b__get-env',
    ]);
  });

  it('keeps the search order when no name is a close misspelling (another namespace is not one)', () => {
    const found = ['memory__create_entities', 'filesystem__list_directory'];
    expect(orderSuggestions('memory__list_directory', found, (n) => n, 3)).toEqual(found);
  });

  it('counts a swap of neighbours as one edit, ignores case, and stops past the bound', () => {
    expect(editDistance('get_wehter', 'get_weather', 3)).toBe(2);
    expect(editDistance('Get_Weather', 'get_waether', 3)).toBe(1);
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3);
    expect(editDistance('x'.repeat(200), 'y'.repeat(64), 5)).toBe(6);
  });
});
