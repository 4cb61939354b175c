import { describe } from 'vitest';
import type { ConformanceHarness } from './harness.js';
import type { ScenarioName } from './scenario-names.js';
import { badInputScenarios } from './scenarios/bad-input.js';
import { codeModeScenarios } from './scenarios/code-mode.js';
import { type ConformanceCapabilities, createScenarioContext } from './scenarios/context.js';
import { deferredScenarios } from './scenarios/deferred.js';
import { feedbackScenarios } from './scenarios/feedback.js';
import { hostToolScenarios } from './scenarios/host-tools.js';
import { instructionScenarios } from './scenarios/instructions.js';
import { loadingScenarios } from './scenarios/loading.js';
import { optionErrorScenarios } from './scenarios/option-errors.js';
import { policyScenarios } from './scenarios/policy.js';
import { preselectScenarios } from './scenarios/preselect.js';
import { resultScenarios } from './scenarios/results.js';
import { stateScenarios } from './scenarios/state.js';
import { telemetryScenarios } from './scenarios/telemetry.js';

export { SCENARIOS, type ScenarioName } from './scenario-names.js';
export type { ConformanceCapabilities } from './scenarios/context.js';

export interface ConformanceOptions {
  /** The adapter's name: tests run inside `describe("conformance: <name>")`. */
  name: string;
  harness: ConformanceHarness;
  capabilities?: ConformanceCapabilities;
  /** Scenarios to skip, with the reason. A misspelled scenario name does not compile. */
  skip?: Partial<Record<ScenarioName, string>>;
}

/**
 * Registers the conformance scenarios as vitest tests, inside `describe("conformance: <name>")`.
 * Scenarios are grouped by theme in `scenarios/`; {@link SCENARIOS} lists them all.
 *
 * @example
 * ```ts
 * runConformance({ name: 'my-framework', harness: createMyHarness(), capabilities: { history: true } });
 * ```
 */
export function runConformance(options: ConformanceOptions): void {
  const context = createScenarioContext({
    harness: options.harness,
    capabilities: options.capabilities ?? {},
    skip: options.skip ?? {},
  });
  describe(`conformance: ${options.name}`, () => {
    loadingScenarios(context);
    hostToolScenarios(context);
    resultScenarios(context);
    policyScenarios(context);
    stateScenarios(context);
    badInputScenarios(context);
    telemetryScenarios(context);
    deferredScenarios(context);
    optionErrorScenarios(context);
    instructionScenarios(context);
    preselectScenarios(context);
    feedbackScenarios(context);
    codeModeScenarios(context);
  });
}
