import { createReferenceHarness } from './reference-harness.js';
import { runConformance } from './run-conformance.js';

runConformance({
  name: 'reference',
  harness: createReferenceHarness(),
  capabilities: {
    modes: { 'auto-load': true, catalog: true, proxy: true, code: true },
    history: true,
    trimHistory: true,
    instructions: true,
    userMessages: true,
    deferredTools: true,
    aliases: true,
    hostTools: true,
  },
});
