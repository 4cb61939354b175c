import type { ToolDescriptor, ToolResolveContext } from '@toolscout/core';
import { expect } from 'vitest';
import { createFixtureCatalog, type Execution } from '../fixtures.js';
import { answer, call, load, resultNames, search, text } from '../harness.js';
import { META, offered, resultOf, type ScenarioContext } from './context.js';

/**
 * Two deferred tools (metadata now, schema and executor on load): one whose `resolve` works and
 * records each call, one whose connector is down.
 */
function deferredTools(executions: Execution[]) {
  const resolves: ToolResolveContext[] = [];
  const findContact: ToolDescriptor = {
    id: 'crm_find_contact',
    description: 'Find a contact in the CRM by name.',
    tags: ['crm'],
    resolve: async (context) => {
      resolves.push(context);
      return {
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Full name' } },
          required: ['name'],
        },
        execute: (input: unknown) => {
          executions.push({ toolId: 'crm_find_contact', input });
          return { email: 'bob@example.com' };
        },
      };
    },
  };
  const syncContacts: ToolDescriptor = {
    id: 'crm_sync_contacts',
    description: 'Sync the CRM contacts with the address book.',
    tags: ['crm'],
    resolve: async (context) => {
      resolves.push(context);
      throw new Error('connector revoked');
    },
  };
  return { tools: [findContact, syncContacts], resolves };
}

/**
 * Deferred tools (a descriptor with `resolve`): search never resolves, a load resolves once for
 * the request and runs the resolved tool, and a failed resolve is not a load. Needs an adapter
 * that hands the catalog's descriptors to core with their `resolve` (capability `deferredTools`).
 */
export function deferredScenarios({ scenario, agentWith, needs }: ScenarioContext): void {
  scenario('deferred tools', needs('deferredTools'), async () => {
    const fixture = createFixtureCatalog({ pinned: false });
    const deferred = deferredTools(fixture.executions);
    const { agent, executions } = await agentWith({
      fixture: { ...fixture, tools: [...fixture.tools, ...deferred.tools] },
    });
    const transcript = await agent.run({
      prompt: 'Find Bob in the CRM, then sync the contacts',
      threadId: 'thread-deferred',
      context: { tenant: 'acme' },
      script: [
        search('find a crm contact'),
        load('crm_find_contact'),
        call('crm_find_contact', { name: 'Bob' }),
        call('crm_find_contact', {}),
        load('crm_sync_contacts'),
        answer(),
      ],
    });
    // Found by its metadata; searching resolved nothing.
    expect(resultNames(resultOf(transcript, 0).output)).toContain('crm_find_contact');
    expect(offered(transcript, 1)).toEqual(META);
    // Loaded, offered with its resolved schema, and run through its resolved executor.
    expect(resultOf(transcript, 1).output).toMatchObject({ success: true });
    expect(offered(transcript, 2)).toEqual([...META, 'crm_find_contact']);
    expect(resultOf(transcript, 2)).toMatchObject({ isError: false, output: { email: 'bob@example.com' } });
    expect(executions).toEqual([{ toolId: 'crm_find_contact', input: { name: 'Bob' } }]);
    const invalid = resultOf(transcript, 3);
    expect(invalid.isError).toBe(true);
    expect(text(invalid.output)).toContain('name');
    // A resolve that fails is not a load: the model reads why, and the tool is never offered.
    const failed = resultOf(transcript, 4);
    expect(failed.output).toMatchObject({ success: false });
    expect(text(failed.output)).toContain('Could not load: crm_sync_contacts');
    expect(offered(transcript, 5)).toEqual([...META, 'crm_find_contact']);
    // One resolve for the load (and the steps after it, same request), one for the failed load.
    expect(deferred.resolves.map((context) => context.toolId)).toEqual(['crm_find_contact', 'crm_sync_contacts']);
    expect(deferred.resolves[0]).toMatchObject({ toolId: 'crm_find_contact', threadId: 'thread-deferred' });
  });
}
