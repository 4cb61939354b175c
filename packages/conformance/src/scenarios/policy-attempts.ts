import type { PolicyFilter, PolicyPhase, ToolSearchMode } from '@toolscout/core';
import { expect } from 'vitest';
import type { Execution } from '../fixtures.js';
import { answer, call, load, resultNames, type ScriptAction, search, type Transcript, text } from '../harness.js';
import { EMAIL } from './context.js';

/** The tool the policy scenarios keep out, and the arguments that would run it. */
export const GUARDED_TOOL = 'send_email';
const TYPO = 'send_emial';

export const POLICY_PHASES: readonly PolicyPhase[] = ['search', 'load', 'active', 'call'];

/** Every way a model can try to find, get and run the guarded tool in a mode, and where to look. */
interface Attempts {
  script: ScriptAction[];
  /** Results of `search_tools`. */
  searches: number[];
  /** Results of calls that would run the tool, the most direct way first. */
  runs: number[];
  /** The result of `describe_tool`, in proxy mode. */
  describe?: number;
  /** The result of a call of a misspelt name, which answers with suggestions. */
  typo: number;
}

/** The modes whose meta-tools a script calls one by one (code mode's program is its own scenario). */
export type StepwiseMode = Exclude<ToolSearchMode, 'code'>;

export const ATTEMPTS: Readonly<Record<StepwiseMode, Attempts>> = {
  'search-load': {
    script: [
      search('send an email message'),
      load(GUARDED_TOOL),
      call(GUARDED_TOOL, EMAIL),
      call(TYPO, EMAIL),
      answer(),
    ],
    searches: [0],
    runs: [2],
    typo: 3,
  },
  'auto-load': {
    script: [search('send an email message'), call(GUARDED_TOOL, EMAIL), call(TYPO, EMAIL), answer()],
    searches: [0],
    runs: [1],
    typo: 2,
  },
  catalog: {
    script: [
      call('discover_tools', { toolNames: [GUARDED_TOOL] }),
      call(GUARDED_TOOL, EMAIL),
      call(TYPO, EMAIL),
      answer(),
    ],
    searches: [],
    runs: [1],
    typo: 2,
  },
  proxy: {
    script: [
      search('send an email message'),
      call('describe_tool', { toolName: GUARDED_TOOL }),
      call('call_tool', { toolName: GUARDED_TOOL, arguments: EMAIL }),
      call(GUARDED_TOOL, EMAIL),
      call('call_tool', { toolName: TYPO, arguments: EMAIL }),
      answer(),
    ],
    searches: [0],
    runs: [2, 3],
    describe: 1,
    typo: 4,
  },
};

/**
 * A filter that keeps the guarded tool out in one phase, by saying no (`deny`) or by never answering
 * (`hang`), and allows everything else; `asked` records the phases it was asked about the tool.
 */
export function guardIn(phase: PolicyPhase, how: 'deny' | 'hang'): { filter: PolicyFilter; asked: Set<PolicyPhase> } {
  const asked = new Set<PolicyPhase>();
  const filter: PolicyFilter = (request) => {
    if (request.toolId !== GUARDED_TOOL) return true;
    asked.add(request.phase);
    if (request.phase !== phase) return true;
    return how === 'deny' ? false : new Promise<boolean>(() => {});
  };
  return { filter, asked };
}

function readsLikeNoTool(transcript: Transcript, index: number, at: string): void {
  const result = transcript.results[index];
  expect(result?.isError, `${at}: result ${index} is an error`).toBe(true);
  const message = text(result?.output);
  expect(message, at).toMatch(new RegExp(`^Tool "${GUARDED_TOOL}" is not available\\.`));
  expect(message.split(GUARDED_TOOL), `${at}: the tool is named once, never suggested`).toHaveLength(2);
}

/**
 * Checks a transcript of `ATTEMPTS[mode]` with the guarded tool kept out in `phase`: the mode asked
 * that phase; denied at `search`, the tool is in no result, listing or suggestion (and in `auto-load`,
 * where searching is the only way to load, it cannot be used); denied at `load`, `active` or `call`,
 * it never runs, through any path, and the refusal reads like a tool that does not exist.
 */
export function expectGuarded(
  mode: StepwiseMode,
  phase: PolicyPhase,
  run: { transcript: Transcript; executions: Execution[]; asked: ReadonlySet<PolicyPhase> },
): void {
  const { transcript, executions, asked } = run;
  const attempts = ATTEMPTS[mode];
  const at = `${mode} mode, ${phase} refused`;
  expect([...asked], `${at}: the mode asks the ${phase} phase`).toContain(phase);
  if (phase === 'search') {
    for (const index of attempts.searches) {
      expect(resultNames(transcript.results[index]?.output), at).not.toContain(GUARDED_TOOL);
    }
    for (const step of transcript.steps) expect(step.descriptions.discover_tools ?? '', at).not.toContain(GUARDED_TOOL);
  }
  if (phase !== 'call') {
    expect(text(transcript.results[attempts.typo]?.output), `${at}: suggestions`).not.toContain(GUARDED_TOOL);
  }
  const usable = phase === 'search' && mode !== 'auto-load';
  const offerable = phase === 'call' || (usable && mode !== 'proxy');
  if (!offerable) {
    for (const step of transcript.steps) expect(step.offered, `${at}: offered`).not.toContain(GUARDED_TOOL);
  }
  if (attempts.describe !== undefined && (phase === 'load' || phase === 'active')) {
    readsLikeNoTool(transcript, attempts.describe, `${at}: describe_tool`);
  }
  if (usable) {
    expect(executions, `${at}: usable by its exact name`).toEqual([{ toolId: GUARDED_TOOL, input: EMAIL }]);
    return;
  }
  expect(executions, `${at}: never runs`).toEqual([]);
  readsLikeNoTool(transcript, attempts.runs[0]!, `${at}: run`);
  for (const index of attempts.runs) expect(transcript.results[index]?.isError, `${at}: result ${index}`).toBe(true);
}
