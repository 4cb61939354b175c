// Hostile input at catalog size: one tool with an oversized description or an adversarial schema,
// or a call with a huge tool name, against a 10,000-tool catalog. Each case runs in its own child
// process with a hard time limit, so a case that is still slow is reported as timed out, not waited on.
import {
  type JsonSchema,
  type ToolCallOutcome,
  ToolCatalog,
  type ToolDescriptor,
  ToolIndex,
  ToolSearchSession,
  type ToolSearchStep,
  ToolscoutError,
} from '@toolscout/core';
import { type ChildHooks, type ChildOutcome, compiledModule, runInChild } from './child-run.js';
import { loadDataset } from './datasets.js';
import { round, seededRandom } from './stats.js';
import { DEFAULT_SEED, poolTools, syntheticCatalog } from './synthetic-catalog.js';

/** The cases, in the order they run: the issue's three first, then the extra rows. */
export const HOSTILE_CASE_NAMES = [
  'description-1mb',
  'schema-2kb',
  'unknown-name-1mb',
  'load-name-1.3mb',
  'unknown-name-1mb-one-letter',
  'description-160k-words',
  'schema-allof-22',
  'schema-dag-24',
  'schema-pattern-backtracking',
  'search-word-32k',
  'search-made-up-1mb',
] as const;
/** One of {@link HOSTILE_CASE_NAMES}. */
export type HostileCaseName = (typeof HOSTILE_CASE_NAMES)[number];

/** The catalog every case runs against by default. */
export const HOSTILE_CATALOG_SIZE = 10_000;
/** The time limit per case by default (from the catalog being ready to the case's answer). */
export const DEFAULT_HOSTILE_TIMEOUT_MS = 10_000;
/** What the issue asks of the claimed cases: each takes under this. */
export const HOSTILE_BOUND_MS = 1_000;
/** The heap the child may use: a case that blows up memory fails instead of taking the machine. */
const CHILD_HEAP_MB = 4_096;

const MIB = 1024 * 1024;
/** Letters of the argument that makes `^(a+)+$` backtrack: a naive regex engine tries 2^n ways. */
const BACKTRACKING_LETTERS = 40;

/** What the child is asked to run. */
export interface HostileRequest {
  case: HostileCaseName;
  /** Dataset folders whose tools make the catalog. */
  datasets: string[];
  /** Tools in the catalog. */
  tools: number;
  seed: number;
}

/** What a case has done so far (a timed-out case reports its last one). */
export interface HostileProgress {
  /** The hostile input, in words (e.g. "1,048,576 characters, 151,310 words"). */
  input: string;
  /** The phase running now. */
  during: string;
  /** Milliseconds of the phases done, in order. */
  phases: Record<string, number>;
}

/** A case that answered. */
export interface HostileFigures {
  input: string;
  /** Milliseconds of all phases together. */
  ms: number;
  /** Milliseconds per phase, in order (e.g. `add`, `load`, `call`). */
  phases: Record<string, number>;
  /** What came back (a result, a tool error for the model, or an error thrown and its class). */
  outcome: string;
  /**
   * Whether a phase threw something other than toolscout's own typed errors (a TypeError, a
   * RangeError...): a crash, whatever the time.
   */
  crashed: boolean;
}

/** How a case ended. */
export type HostileOutcome =
  | ({ status: 'ok' } & HostileFigures)
  | ({ status: 'timed-out'; timeoutMs: number } & Partial<HostileProgress>)
  | { status: 'failed'; error: string };

/** One row of `bench hostile`. */
export type HostileResult = {
  case: HostileCaseName;
  /** What the case does, in words. */
  what: string;
  /** Whether the issue claims it takes under {@link HOSTILE_BOUND_MS}. */
  claimed: boolean;
  /** Tools in the catalog. */
  tools: number;
} & HostileOutcome;

/** The catalog and session a case runs against, and words to make text from. */
export interface HostileContext {
  catalog: ToolCatalog<unknown>;
  session: ToolSearchSession<unknown>;
  /** Distinct words of the catalog's descriptions, sorted. */
  words: readonly string[];
  random: () => number;
}

/** One timed step of a case; what it returns (if anything) is the case's outcome so far. */
interface Phase {
  name: string;
  run(): Promise<string | undefined> | string | undefined;
}

interface HostileCase {
  name: HostileCaseName;
  what: string;
  claimed: boolean;
  /** Makes the hostile input (not timed) and the phases to time. */
  prepare(context: HostileContext): Promise<{ input: string; phases: Phase[] }>;
}

const count = (value: number) => value.toLocaleString('en-US');

/** The distinct lower-case words (3+ letters) of the tools' descriptions, sorted. */
export function descriptionWords(tools: Iterable<{ description?: string }>): string[] {
  const words = new Set<string>();
  for (const tool of tools) {
    for (const word of (tool.description ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []) words.add(word);
  }
  return [...words].sort();
}

/**
 * Text of real words in a seeded random order, joined by spaces: exactly `chars` characters (the
 * last word cut), or `words` words.
 */
export function hostileText(
  words: readonly string[],
  random: () => number,
  size: { chars: number } | { words: number },
): string {
  if (words.length === 0) throw new Error('hostileText needs words to draw from.');
  const parts: string[] = [];
  let length = 0;
  const done = () => ('chars' in size ? length >= size.chars : parts.length >= size.words);
  while (!done()) {
    const word = words[Math.floor(random() * words.length)]!;
    parts.push(word);
    length += word.length + 1;
  }
  const text = parts.join(' ');
  return 'chars' in size ? text.slice(0, size.chars) : text;
}

/**
 * A made-up tool name of exactly `chars` characters: words of 5 to 9 random letters (words no
 * catalog knows, so a search for them looks for near matches) joined by `_`.
 */
export function madeUpName(random: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    let word = '';
    const letters = 5 + Math.floor(random() * 5);
    for (let i = 0; i < letters; i++) word += String.fromCharCode(97 + Math.floor(random() * 26));
    parts.push(word);
    length += letters + 1;
  }
  return parts.join('_').slice(0, chars);
}

/**
 * An input schema of `levels` `$defs`, each an `allOf` of two `$ref`s to the level below: a
 * validator that follows every reference walks 2^levels paths.
 */
export function allOfChainSchema(levels: number): JsonSchema {
  const defs: Record<string, JsonSchema> = {
    l0: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  };
  for (let level = 1; level <= levels; level++) {
    const below = { $ref: `#/$defs/l${level - 1}` };
    defs[`l${level}`] = { allOf: [below, below] };
  }
  return { type: 'object', $defs: defs, $ref: `#/$defs/l${levels}` };
}

/** The deepest {@link allOfChainSchema} whose JSON takes at most `bytes`. */
export function allOfChainWithin(bytes: number): { schema: JsonSchema; levels: number } {
  let levels = 1;
  while (JSON.stringify(allOfChainSchema(levels + 1)).length <= bytes) levels++;
  return { schema: allOfChainSchema(levels), levels };
}

/**
 * An input schema `levels` objects deep whose two properties are the same JS object at every level:
 * small in memory, 2^levels leaves when written out as JSON (or copied naively).
 */
export function sharedSubObjectSchema(levels: number): JsonSchema {
  let node: JsonSchema = { type: 'object', properties: { v: { type: 'string' } } };
  for (let level = 0; level < levels; level++) node = { type: 'object', properties: { a: node, b: node } };
  return node;
}

/** A thrown error in one line: its class, its code if it has one, and the start of its message. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `threw ${String(error).slice(0, 120)}`;
  const code = (error as { code?: unknown }).code;
  const message = error.message.length > 160 ? `${error.message.slice(0, 160)}…` : error.message;
  return `threw ${error.name}${typeof code === 'string' ? ` (${code})` : ''}: ${message}`;
}

/** A session's answer to a call in one line: ok and its size, or the error code and the message's size. */
export function describeCallOutcome(outcome: ToolCallOutcome): string {
  if (outcome.ok) return `ok (${count(JSON.stringify(outcome.output ?? null).length)} characters of output)`;
  return `${outcome.error.code} error for the model (message of ${count(outcome.error.message.length)} characters)`;
}

const THREAD = { threadId: 'hostile' };
const HOSTILE_ID = 'hostile__tool';

function hostileTool(fields: Partial<ToolDescriptor<unknown>>): ToolDescriptor<unknown> {
  return { id: HOSTILE_ID, description: 'A tool with a hostile part.', execute: () => ({ done: true }), ...fields };
}

/** Whether a `search_tools` answer lists the tool named `toolName`. */
function lists(outcome: ToolCallOutcome, toolName: string | undefined): boolean {
  const results = outcome.ok ? (outcome.output as { results?: { name?: unknown }[] } | undefined)?.results : undefined;
  return Array.isArray(results) && results.some((result) => result?.name === toolName);
}

/** A tool with this description enters the catalog (the index follows), then a search of its first words. */
function describedToolPhases(context: HostileContext, description: string): Phase[] {
  const query = description.split(' ').slice(0, 3).join(' ');
  return [
    { name: 'add', run: () => void context.catalog.add(hostileTool({ description })) },
    {
      name: 'search',
      run: async () => {
        const step = await context.session.prepareStep(THREAD);
        const outcome = await step.execute('search_tools', { query });
        const tool = context.catalog.get(HOSTILE_ID);
        const found = lists(outcome, tool?.toolName) ? 'the tool among the hits' : 'the tool not among the hits';
        const served = tool?.description?.length ?? 0;
        return `search ${describeCallOutcome(outcome)}, ${found}; the catalog serves ${count(served)} of ${count(description.length)} characters`;
      },
    },
  ];
}

/** A tool with this schema enters the catalog, is loaded, and is called with `args`. */
function schemaToolPhases(context: HostileContext, inputSchema: JsonSchema, args: unknown): Phase[] {
  const { catalog, session } = context;
  let step: ToolSearchStep<unknown> | undefined;
  return [
    { name: 'add', run: () => void catalog.add(hostileTool({ inputSchema })) },
    {
      name: 'load',
      run: async () => {
        const toolName = catalog.get(HOSTILE_ID)!.toolName;
        const loaded = await (await session.prepareStep(THREAD)).execute('load_tool', { toolName });
        if (!loaded.ok) return `load_tool: ${describeCallOutcome(loaded)}`;
        step = await session.prepareStep(THREAD);
        return undefined;
      },
    },
    {
      name: 'call',
      run: async () =>
        step ? describeCallOutcome(await step.execute(catalog.get(HOSTILE_ID)!.toolName, args)) : 'not loaded',
    },
  ];
}

/** One call of the step's `name` (a tool or a meta-tool) with `args`. */
function callPhase(context: HostileContext, phase: string, name: string, args: unknown): Phase {
  return {
    name: phase,
    run: async () => describeCallOutcome(await (await context.session.prepareStep(THREAD)).execute(name, args)),
  };
}

/**
 * A search of the index itself, whole request and all (the session's `search_tools` reads only the
 * first 2,000 characters): a user's own endpoint may pass it anything. The index is built here, untimed.
 */
function indexSearchPhase(context: HostileContext, query: string): Phase {
  const index = new ToolIndex(context.catalog);
  return { name: 'search', run: async () => `${(await index.search(query, { limit: 10 })).length} hits` };
}

const characters = (text: string) => `${count(text.length)} characters, ${count(text.split(' ').length)} words`;
const madeUpWords = (name: string) =>
  `${count(name.length)} characters, ${count(name.split('_').length)} made-up words`;

const CASES: readonly HostileCase[] = [
  {
    name: 'description-1mb',
    what: 'index one tool with a 1 MB description',
    claimed: true,
    prepare: async (context) => {
      const text = hostileText(context.words, context.random, { chars: MIB });
      return { input: characters(text), phases: describedToolPhases(context, text) };
    },
  },
  {
    name: 'schema-2kb',
    what: 'validate a call against a 2 KB adversarial schema',
    claimed: true,
    prepare: async (context) => {
      const { schema, levels } = allOfChainWithin(2048);
      return {
        input: `${count(JSON.stringify(schema).length)} bytes: ${levels} levels of allOf over two $refs`,
        phases: schemaToolPhases(context, schema, { q: 'x' }),
      };
    },
  },
  {
    name: 'unknown-name-1mb',
    what: 'answer a call of a 1 MB unknown tool name',
    claimed: true,
    prepare: async (context) => {
      const name = madeUpName(context.random, MIB);
      return { input: madeUpWords(name), phases: [callPhase(context, 'call', name, {})] };
    },
  },
  {
    name: 'load-name-1.3mb',
    what: 'answer load_tool with a 1.3 MB tool name',
    claimed: false,
    prepare: async (context) => {
      const name = madeUpName(context.random, 1_300_000);
      return { input: madeUpWords(name), phases: [callPhase(context, 'load', 'load_tool', { toolName: name })] };
    },
  },
  {
    name: 'unknown-name-1mb-one-letter',
    what: 'answer a call of a 1 MB unknown tool name of one letter repeated',
    claimed: false,
    prepare: async (context) => {
      const name = 'a'.repeat(MIB);
      return { input: `${count(name.length)} × "a"`, phases: [callPhase(context, 'call', name, {})] };
    },
  },
  {
    name: 'description-160k-words',
    what: 'index one tool with a 160,000-word description',
    claimed: false,
    prepare: async (context) => {
      const text = hostileText(context.words, context.random, { words: 160_000 });
      return { input: characters(text), phases: describedToolPhases(context, text) };
    },
  },
  {
    name: 'schema-allof-22',
    what: 'validate a call against a 22-level allOf/$ref chain',
    claimed: false,
    prepare: async (context) => {
      const schema = allOfChainSchema(22);
      return {
        input: `${count(JSON.stringify(schema).length)} bytes: 22 levels of allOf over two $refs`,
        phases: schemaToolPhases(context, schema, { q: 'x' }),
      };
    },
  },
  {
    name: 'schema-dag-24',
    what: 'add and call a tool whose schema reuses one sub-object at 24 levels',
    claimed: false,
    prepare: async (context) => ({
      input: '24 levels, one shared sub-object per level (2^24 leaves as JSON)',
      phases: schemaToolPhases(context, sharedSubObjectSchema(24), {}),
    }),
  },
  {
    name: 'schema-pattern-backtracking',
    what: 'validate a call whose argument makes a schema pattern backtrack',
    claimed: false,
    prepare: async (context) => {
      const pattern = '^(a+)+$';
      const schema = { type: 'object', properties: { q: { type: 'string', pattern } }, required: ['q'] };
      const q = `${'a'.repeat(BACKTRACKING_LETTERS)}b`;
      return {
        input: `pattern ${pattern}, an argument of ${BACKTRACKING_LETTERS} × "a" then "b"`,
        phases: schemaToolPhases(context, schema, { q }),
      };
    },
  },
  {
    name: 'search-word-32k',
    what: 'ToolIndex.search for one 32,768-letter word (typos searched up to 64 letters)',
    claimed: false,
    prepare: async (context) => {
      const query = madeUpName(context.random, 40_000).replaceAll('_', '').slice(0, 32_768);
      return { input: `${count(query.length)} letters`, phases: [indexSearchPhase(context, query)] };
    },
  },
  {
    name: 'search-made-up-1mb',
    what: 'ToolIndex.search for a 1 MB request of made-up words (typos searched for the first 256)',
    claimed: false,
    prepare: async (context) => {
      const query = madeUpName(context.random, MIB).replaceAll('_', ' ');
      return { input: characters(query), phases: [indexSearchPhase(context, query)] };
    },
  },
];

/** The case of this name. */
export function hostileCase(name: HostileCaseName): HostileCase {
  const found = CASES.find((entry) => entry.name === name);
  if (!found) throw new Error(`Unknown hostile case "${name}": use ${HOSTILE_CASE_NAMES.join(', ')}.`);
  return found;
}

/**
 * What {@link measureHostileCase} tells its caller while it runs: `ready` once the catalog and the
 * input are made (the time limit starts then; the phases start once it resolves), `progress` as
 * each phase begins.
 */
export type HostileHooks = Partial<ChildHooks<HostileProgress>>;

/**
 * Runs one case in this process: builds the catalog (a session over it, index built), makes the
 * hostile input, calls `ready`, then times each phase. An error thrown by a phase (e.g. the catalog
 * refusing the tool) is the case's outcome and ends it.
 */
export async function measureHostileCase(request: HostileRequest, hooks: HostileHooks = {}): Promise<HostileFigures> {
  const base = poolTools(request.datasets.map((folder) => loadDataset(folder)));
  const catalog = new ToolCatalog<unknown>(syntheticCatalog(base, request.tools, request.seed));
  const session = new ToolSearchSession<unknown>({ catalog });
  const context: HostileContext = {
    catalog,
    session,
    words: descriptionWords(catalog.list()),
    random: seededRandom(request.seed),
  };
  const { input, phases } = await hostileCase(request.case).prepare(context);
  // Reported before the clock starts, so that a case timed out at once still says what it was.
  hooks.progress?.({ input, during: phases[0]?.name ?? 'set-up', phases: {} });
  await hooks.ready?.();
  const times: Record<string, number> = {};
  let outcome = 'done';
  let thrown: unknown;
  for (const phase of phases) {
    hooks.progress?.({ input, during: phase.name, phases: { ...times } });
    const started = performance.now();
    try {
      outcome = (await phase.run()) ?? outcome;
    } catch (error) {
      outcome = describeError(error);
      thrown = error ?? 'undefined';
    }
    times[phase.name] = round(performance.now() - started, 1);
    if (thrown !== undefined) break;
  }
  const ms = round(
    Object.values(times).reduce((sum, value) => sum + value, 0),
    1,
  );
  return { input, ms, phases: times, outcome, crashed: thrown !== undefined && !ToolscoutError.isInstance(thrown) };
}

/** Options of {@link runHostile}. */
export interface HostileOptions {
  /** Dataset folders whose tools make the catalog. */
  datasets: string[];
  /** The cases to run, in this order. Default: all of {@link HOSTILE_CASE_NAMES}. */
  cases?: readonly HostileCaseName[];
  /** Tools in the catalog. Default {@link HOSTILE_CATALOG_SIZE}. */
  tools?: number;
  /** Time limit per case. Default {@link DEFAULT_HOSTILE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Seed of the catalog and of the hostile text. Default {@link DEFAULT_SEED}. */
  seed?: number;
  /** Receives progress lines. */
  onProgress?: (line: string) => void;
}

function fromOutcome(outcome: ChildOutcome<HostileFigures, HostileProgress>, timeoutMs: number): HostileOutcome {
  if (outcome.status === 'ok') return { status: 'ok', ...outcome.value };
  if (outcome.status === 'timed-out') return { status: 'timed-out', timeoutMs, ...outcome.progress };
  const outOfMemory = /SIGABRT|SIGTRAP|code 134/.test(outcome.message);
  return {
    status: 'failed',
    error: outOfMemory
      ? `${outcome.message} (most likely out of memory: the heap limit is ${CHILD_HEAP_MB} MB)`
      : outcome.message,
  };
}

function describeResult(result: HostileOutcome): string {
  if (result.status === 'ok') return `${result.ms} ms (${result.crashed ? 'crashed: ' : ''}${result.outcome})`;
  if (result.status === 'timed-out')
    return `timed out after ${result.timeoutMs / 1000} s during ${result.during ?? 'setup'}`;
  return `failed: ${result.error.split('\n')[0]}`;
}

/** Runs each case in a fresh child process with a time limit and reports what each did. */
export async function runHostile(options: HostileOptions): Promise<HostileResult[]> {
  const {
    cases = HOSTILE_CASE_NAMES,
    tools = HOSTILE_CATALOG_SIZE,
    timeoutMs = DEFAULT_HOSTILE_TIMEOUT_MS,
    seed = DEFAULT_SEED,
    onProgress = () => {},
  } = options;
  const child = compiledModule('hostile-child.js');
  const results: HostileResult[] = [];
  for (const name of cases) {
    const { what, claimed } = hostileCase(name);
    onProgress(`hostile: ${what} (${count(tools)} tools)...`);
    const request: HostileRequest = { case: name, datasets: options.datasets, tools, seed };
    const outcome = fromOutcome(
      await runInChild<HostileFigures, HostileProgress>(child, request, {
        timeoutMs,
        execArgv: [`--max-old-space-size=${CHILD_HEAP_MB}`],
      }),
      timeoutMs,
    );
    onProgress(`hostile: ${what}: ${describeResult(outcome)}`);
    results.push({ case: name, what, claimed, tools, ...outcome });
  }
  return results;
}
