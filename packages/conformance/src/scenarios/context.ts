import type { PolicyRequest, ToolDescriptor, ToolSearchMode } from '@toolscout/core';
import { it } from 'vitest';
import { createFixtureCatalog, type Execution, type Fixture } from '../fixtures.js';
import type { AgentSetup, ConformanceHarness, HarnessAgent, Transcript } from '../harness.js';
import type { ScenarioName } from '../scenario-names.js';

/** What an adapter supports; scenarios that need more are skipped, and the skip says why. */
export interface ConformanceCapabilities {
  /** The modes the adapter supports besides `search-load` (which every adapter must). */
  modes?: Partial<Record<Exclude<ToolSearchMode, 'search-load'>, boolean>>;
  /** The adapter can run a turn from a history returned by an earlier turn (and a new agent). */
  history?: boolean;
  /** The harness implements `trimHistory`. */
  trimHistory?: boolean;
  /**
   * The adapter puts `step.instructions` in the framework's system channel, and the harness reports
   * the system text the model received (`Transcript.steps[].system`).
   */
  instructions?: boolean;
  /**
   * The adapter passes the user's messages to the session (`{ type: 'user-message', text }` entries
   * of the conversation), which `preselect` needs.
   */
  userMessages?: boolean;
  /**
   * The adapter hands catalog descriptors to core with their `resolve` (deferred tools: schema and
   * executor fetched on load), and gives the model the schema of the resolved tool.
   */
  deferredTools?: boolean;
  /** The adapter keeps catalog tools' `aliases` (e.g. Mastra's record keys that differ from the id). */
  aliases?: boolean;
  /** The harness gives the agent `AgentSetup.hostTools` as its own tools, and the session their names. */
  hostTools?: boolean;
}

/** What a scenario needs of the adapter: `true` when it has it, else why the scenario is skipped. */
export type Need = true | string;

/** An agent built for a scenario, with the fixture's tools and what they ran. */
export interface ScenarioAgent {
  agent: HarnessAgent;
  executions: Execution[];
  tools: ToolDescriptor[];
}

/** What a scenario file gets from `runConformance`: the harness and the ways to register and build. */
export interface ScenarioContext {
  harness: ConformanceHarness;
  capabilities: ConformanceCapabilities;
  /** `true` when the adapter supports a mode besides `search-load`, else why a scenario in it is skipped. */
  mode(name: Exclude<ToolSearchMode, 'search-load'>): Need;
  /** `true` when the adapter declares every capability named, else why a scenario needing them is skipped. */
  needs(...names: readonly Exclude<keyof ConformanceCapabilities, 'modes'>[]): Need;
  /** Registers a scenario as a vitest test, skipped (saying why) when `needs` is a reason or it is in `skip`. */
  scenario(name: ScenarioName, needs: Need, body: () => Promise<void>): void;
  /**
   * Builds an agent over the fixture catalog (or `setup.fixture`, a fixture the scenario changed):
   * `direct` gives it the fixture's direct tools, `pinned` keeps the pinned fixture tool.
   */
  agentWith(
    setup?: Partial<Omit<AgentSetup, 'directTools'>> & { pinned?: boolean; direct?: boolean; fixture?: Fixture },
  ): Promise<ScenarioAgent>;
}

/** The meta-tools of the default mode, as offered. */
export const META = ['search_tools', 'load_tool'];

/** An email the fixture's `send_email` accepts. */
export const EMAIL = { to: 'bob@example.com', subject: 'Hi', body: 'Hello' };

/** The tool names offered at a step; throws (naming the count) when the transcript has no such step. */
export function offered(transcript: Transcript, step: number): string[] {
  const record = transcript.steps[step];
  if (!record) throw new Error(`The transcript has ${transcript.steps.length} steps; step ${step} was expected.`);
  return record.offered;
}

/** A result the model saw; throws (naming the count) when the transcript has no such result. */
export function resultOf(
  transcript: Transcript,
  index: number,
): { toolName: string; output: unknown; isError: boolean } {
  const result = transcript.results[index];
  if (!result)
    throw new Error(`The transcript has ${transcript.results.length} results; result ${index} was expected.`);
  return result;
}

/** A policy filter that hides one tool in one phase and allows everything else. */
export function hide(phase: PolicyRequest['phase'], toolId: string): (request: PolicyRequest) => boolean {
  return (request) => !(request.phase === phase && request.toolId === toolId);
}

/** The context `runConformance` hands to each scenario file. */
export function createScenarioContext(options: {
  harness: ConformanceHarness;
  capabilities: ConformanceCapabilities;
  skip: Partial<Record<ScenarioName, string>>;
}): ScenarioContext {
  const { harness, capabilities, skip } = options;
  return {
    harness,
    capabilities,
    mode: (name) => capabilities.modes?.[name] === true || `the adapter does not declare mode '${name}'`,
    needs(...names) {
      const missing = names.filter((name) => capabilities[name] !== true);
      return missing.length === 0 || `the adapter does not declare ${missing.join(', ')}`;
    },
    scenario(name, needs, body) {
      const reason = skip[name] ?? (needs === true ? undefined : needs);
      if (reason !== undefined) it.skip(`${name} (skipped: ${reason})`, body);
      else it(name, body);
    },
    async agentWith(setup = {}) {
      const fixture = setup.fixture ?? createFixtureCatalog({ pinned: setup.pinned ?? false });
      const agent = await harness.createAgent({
        tools: setup.tools ?? fixture.tools,
        directTools: setup.direct ? fixture.direct : undefined,
        hostTools: setup.hostTools,
        options: setup.options ?? {},
      });
      return { agent, executions: fixture.executions, tools: fixture.tools };
    },
  };
}
