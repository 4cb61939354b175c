import type { ToolDescriptor, ToolSearchSessionOptions } from '@toolscout/core';

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  toolName: string;
  input: unknown;
}

/**
 * What the scripted model does at one step: call one tool, call several in parallel, or answer (the
 * last step of a turn).
 */
export type ScriptAction = { type: 'calls'; calls: ScriptedCall[] } | { type: 'answer'; text: string };

/** `call search_tools with {query}` */
export function search(query: string, toolName = 'search_tools'): ScriptAction {
  return call(toolName, { query });
}

/** `call load_tool with {toolName}` or `{toolNames}` */
export function load(names: string | string[], toolName = 'load_tool'): ScriptAction {
  return call(toolName, typeof names === 'string' ? { toolName: names } : { toolNames: names });
}

/** `call <tool> with {...}` */
export function call(toolName: string, input: unknown): ScriptAction {
  return { type: 'calls', calls: [{ toolName, input }] };
}

/** Several calls in one step. */
export function parallel(...calls: ScriptedCall[]): ScriptAction {
  return { type: 'calls', calls };
}

/** `answer` */
export function answer(text = 'Done.'): ScriptAction {
  return { type: 'answer', text };
}

/** What an agent is built from in a scenario. */
export interface AgentSetup {
  /** The searchable catalog, core descriptors with `execute`; convert them to your framework's tools. */
  tools: ToolDescriptor[];
  /** Tools given directly (always offered, not searchable). */
  directTools?: ToolDescriptor[];
  /**
   * Tools the framework's agent has itself, not given to toolscout (capability `hostTools`): offer
   * them to the model as the agent's own tools, run them yourself, and tell the session their names
   * at every step (`StepRequest.hostTools`).
   */
  hostTools?: ToolDescriptor[];
  /** Session options (mode, state, filter, search, metaTools, ...), to pass through your adapter. */
  options: Omit<ToolSearchSessionOptions, 'catalog' | 'tools'>;
}

/** One user turn. */
export interface TurnRequest {
  /** The user's message. */
  prompt: string;
  /** What the fake model does, step by step; the last action is `answer`. */
  script: ScriptAction[];
  /** The conversation thread, when the scenario has one. */
  threadId?: string;
  /** The history returned by an earlier turn (possibly trimmed), to continue the conversation. */
  history?: unknown;
  /** The host's request context, handed to the policy filter. */
  context?: Record<string, unknown>;
}

/** What a turn looked like from the model's side. */
export interface Transcript {
  /**
   * Per model call, in order: the tool names offered, in the order offered, and (harnesses with the
   * `instructions` capability) the system text the model received: its system messages joined by a
   * blank line, undefined when it received none.
   */
  steps: { offered: string[]; descriptions: Record<string, string>; system?: string }[];
  /**
   * Every tool result the model saw, in order. `output` is what the model received, parsed from JSON
   * when it was JSON text; errors are reported with `isError: true` and their message in `output`.
   */
  results: { toolName: string; output: unknown; isError: boolean }[];
  /** The conversation after the turn, in the harness's own form, for the next turn. */
  history: unknown;
}

/** A tool result's output as text: a message as it is, anything else as JSON. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The tool names a `search_tools` output lists (none when it lists none). */
export function resultNames(output: unknown): string[] {
  const results = (output as { results?: { name: string }[] } | undefined)?.results;
  return Array.isArray(results) ? results.map((result) => result.name) : [];
}

/** An agent of the framework under test, with the adapter plugged in. */
export interface HarnessAgent {
  run(turn: TurnRequest): Promise<Transcript>;
}

/**
 * Drives a framework's real agent loop with its own fake model. `createAgent` builds a new agent
 * (and a new toolscout session) each time it is called: calling it again is a restart.
 */
export interface ConformanceHarness {
  createAgent(setup: AgentSetup): HarnessAgent | Promise<HarnessAgent>;
  /** Removes the results (and calls) of the named tools from a history, as context trimming would. */
  trimHistory?(history: unknown, toolNames: readonly string[]): unknown;
  /**
   * Session options the adapter names differently, by their session name (e.g. Mastra's
   * `{ 'search.limit': 'search.topK' }`): an option error must name the option as the user wrote it.
   */
  optionNames?: Readonly<Record<string, string>>;
}
