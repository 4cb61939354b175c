import { runConformance } from '@toolscout/conformance';
import { createMcpHarness } from './test-utils/mcp-harness.js';

runConformance({
  name: 'mcp',
  harness: createMcpHarness(),
  // Loaded tools live in the server per client session; MCP carries no conversation to restore one.
  capabilities: { modes: { 'auto-load': true, catalog: true, proxy: true }, history: false, trimHistory: false },
  skip: {
    'a search result is not a load':
      "runs with state 'conversation', which MCP cannot have (the server sees no conversation); the MCP tests check the same with per-session state",
  },
});
