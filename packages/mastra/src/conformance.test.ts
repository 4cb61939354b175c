import { runConformance } from '@toolscout/conformance';
import { createMastraHarness } from '../test-utils/mastra-harness.js';

const capabilities = { modes: { 'auto-load': true, catalog: true, proxy: true }, history: true, trimHistory: true };
// The harness gives direct tools to the agent as its own tools; until the processor passes their
// names to the session (`StepRequest.hostTools`), load_tool does not know them.
const skip = { 'direct tools win': 'the processor does not pass the agent’s own tools as hostTools yet (issue #15)' };

runConformance({ name: 'mastra (generate)', harness: createMastraHarness({ method: 'generate' }), capabilities, skip });
runConformance({ name: 'mastra (stream)', harness: createMastraHarness({ method: 'stream' }), capabilities, skip });
