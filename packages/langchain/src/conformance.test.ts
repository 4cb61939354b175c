import { runConformance } from '@toolscout/conformance';
import { createLangChainHarness } from '../test-utils/langchain-harness.js';

runConformance({
  name: 'langchain',
  harness: createLangChainHarness(),
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
