import { runConformance } from '@toolscout/conformance';
import { createTanStackHarness } from '../test-utils/tanstack-harness.js';

runConformance({
  name: 'tanstack-ai',
  harness: createTanStackHarness(),
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
