import { runConformance } from '@toolscout/conformance';
import { createAISDKHarness } from '../test-utils/ai-sdk-harness.js';

runConformance({
  name: 'ai-sdk',
  harness: createAISDKHarness(),
  capabilities: {
    modes: { 'auto-load': true, catalog: true, proxy: true, code: true },
    history: true,
    trimHistory: true,
    instructions: true,
    userMessages: true,
    deferredTools: true,
    aliases: true,
  },
});
