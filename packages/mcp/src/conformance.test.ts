import { runConformance } from '@toolscout/conformance';
import { createMcpHarness } from '../test-utils/mcp-harness.js';

runConformance({
  name: 'mcp',
  harness: createMcpHarness(),
  // Loaded tools live in the server per client session; MCP carries no conversation to restore one,
  // and no user messages (so no preselect). Its system channel is `initialize`'s instructions.
  capabilities: {
    modes: { 'auto-load': true, catalog: true, proxy: true, code: true },
    history: false,
    trimHistory: false,
    instructions: true,
    deferredTools: true,
  },
});
