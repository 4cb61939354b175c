import { runConformance } from '@toolscout/conformance';
import { createMastraHarness } from '../test-utils/mastra-harness.js';

const capabilities = {
  modes: { 'auto-load': true, catalog: true, proxy: true, code: true },
  history: true,
  trimHistory: true,
  instructions: true,
  userMessages: true,
  deferredTools: true,
  aliases: true,
  hostTools: true,
};

runConformance({ name: 'mastra (generate)', harness: createMastraHarness({ method: 'generate' }), capabilities });
runConformance({ name: 'mastra (stream)', harness: createMastraHarness({ method: 'stream' }), capabilities });
