export { createFixtureCatalog, type Execution, type Fixture } from './fixtures.js';
export {
  type AgentSetup,
  answer,
  type ConformanceHarness,
  call,
  type HarnessAgent,
  load,
  parallel,
  type ScriptAction,
  type ScriptedCall,
  search,
  type Transcript,
  type TurnRequest,
} from './harness.js';
export { createReferenceHarness } from './reference-harness.js';
export {
  type ConformanceCapabilities,
  type ConformanceOptions,
  runConformance,
  SCENARIOS,
  type ScenarioName,
} from './run-conformance.js';
export {
  runStoreContract,
  STORE_CHECKS,
  type StoreCheckName,
  type StoreContractCapabilities,
  type StoreContractOptions,
  type StoreContractStoreOptions,
} from './store-contract.js';
