import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { MASTRA_THREAD_ID_KEY, RequestContext } from '@mastra/core/request-context';
import { createTool, type Tool } from '@mastra/core/tools';
import type { ConformanceHarness, ScriptAction, Transcript } from '@toolscout/conformance';
import type { CatalogTool, PolicyFilter, ToolDescriptor, ToolSearchSessionOptions } from '@toolscout/core';
import { ScriptedModel } from '@toolscout/test-kit';
import type { MastraTool } from '../src/from-mastra-tools.js';
import { ToolSearchProcessor } from '../src/tool-search-processor.js';
import type { ToolSearchProcessorOptions } from '../src/tool-search-processor-options.js';

let models = 0;

/**
 * A scripted model for a Mastra agent. Each has its own tool call ids (`mastra-<n>-1`, ...), so two
 * agents sharing a memory thread or a history never reuse one.
 */
export function scriptedModel(): ScriptedModel {
  return new ScriptedModel([], { callIdPrefix: `mastra-${++models}` });
}

/**
 * The model to give an `Agent`. Mastra 1.71's types expect a V4 model's `doGenerate` to return a
 * stream; at run time it calls `doGenerate` for `generate` and `doStream` for `stream`.
 */
export function mastraModel(scripted: ScriptedModel): MastraModelConfig {
  return scripted.mock as unknown as MastraModelConfig;
}

/** How a turn is run: `agent.generate` or `agent.stream` (read to the end). */
export type RunMethod = 'generate' | 'stream';

export interface TurnOptions {
  prompt: string;
  script: readonly ScriptAction[];
  method?: RunMethod;
  requestContext?: RequestContext;
  /** Mastra memory: the thread and resource of the turn. */
  memory?: { thread: string; resource: string };
  /** Messages of earlier turns (Mastra DB messages), sent before the prompt. */
  history?: readonly unknown[];
  /** More options for `generate`/`stream` (e.g. `activeTools`). */
  options?: Record<string, unknown>;
}

export interface TurnResult {
  /** The input and response messages of the turn, for the next one. */
  messages: unknown[];
  text: string;
}

/** What `runTurn` uses of an agent (any `Agent`, whatever its type parameters). */
export interface RunnableAgent {
  generate(
    input: never,
    options: never,
  ): Promise<{ text: string; response: { dbMessages?: unknown[] }; error?: unknown }>;
  stream(
    input: never,
    options: never,
  ): Promise<{
    fullStream: AsyncIterable<unknown>;
    text: Promise<string>;
    response: Promise<{ dbMessages?: unknown[] }>;
    error?: unknown;
  }>;
}

/** A request context holding these entries. */
export function requestContextOf(entries: Record<string, unknown>): RequestContext {
  const requestContext = new RequestContext();
  for (const [key, value] of Object.entries(entries)) requestContext.set(key, value);
  return requestContext;
}

/**
 * Runs one turn of a real Mastra agent whose model is `scripted`, and checks that the model played
 * its whole script (Mastra reports some failures in the result instead of throwing).
 */
export async function runTurn(agent: RunnableAgent, scripted: ScriptedModel, turn: TurnOptions): Promise<TurnResult> {
  scripted.play(turn.script);
  const input: unknown[] = [...(turn.history ?? []), { role: 'user', content: turn.prompt }];
  const options = {
    ...turn.options,
    maxSteps: turn.script.length + 1,
    ...(turn.requestContext ? { requestContext: turn.requestContext } : {}),
    ...(turn.memory ? { memory: turn.memory } : {}),
  };
  let text: string;
  let dbMessages: unknown[];
  let error: unknown;
  if (turn.method === 'stream') {
    const output = await agent.stream(input as never, options as never);
    for await (const _chunk of output.fullStream) {
      // read to the end: the run happens as the stream is consumed
    }
    text = await output.text;
    dbMessages = (await output.response).dbMessages ?? [];
    error = output.error;
  } else {
    const output = await agent.generate(input as never, options as never);
    text = output.text;
    dbMessages = output.response.dbMessages ?? [];
    error = output.error;
  }
  if (error) throw error;
  if (scripted.remaining !== 0) {
    throw new Error(
      `The agent stopped after ${scripted.calls.length} of ${turn.script.length} scripted model calls (text: ${JSON.stringify(text)}).`,
    );
  }
  return { messages: [...input, ...dbMessages], text };
}

/** A Mastra tool for a conformance descriptor: its JSON Schema, and its `execute` (with the request context). */
function toCreatedTool(descriptor: ToolDescriptor): Tool {
  return createTool({
    id: descriptor.id,
    description: descriptor.description ?? '',
    inputSchema: descriptor.inputSchema as Parameters<typeof createTool>[0]['inputSchema'],
    execute: async (input: unknown, context: { requestContext?: RequestContext; abortSignal?: AbortSignal }) =>
      descriptor.execute?.(input, {
        toolId: descriptor.id,
        context: context?.requestContext,
        abortSignal: context?.abortSignal,
      }),
  }) as unknown as Tool;
}

/**
 * A catalog tool as the processor takes it: a `createTool` tool, or a descriptor around one when it has aliases or is
 * deferred (`resolve`: its schema and executor come on load), which Mastra tools cannot say.
 */
function toCatalogTool(descriptor: ToolDescriptor): Tool | ToolDescriptor<MastraTool> {
  if (descriptor.resolve) return descriptor as ToolDescriptor<MastraTool>;
  if (!descriptor.aliases) return toCreatedTool(descriptor);
  return { ...descriptor, execute: undefined, tool: toCreatedTool(descriptor) } as ToolDescriptor<MastraTool>;
}

/** The system text of a model call: its system messages joined by a blank line, undefined when it has none. */
function systemOf(call: ScriptedModel['calls'][number] | undefined): string | undefined {
  const texts = (call?.prompt ?? []).flatMap((message) => (message.role === 'system' ? [message.content] : []));
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** The processor options for a conformance setup's session options (toolscout names to Mastra names). */
function processorOptions(
  tools: (Tool | ToolDescriptor<MastraTool>)[],
  pinned: string[],
  options: Omit<ToolSearchSessionOptions, 'catalog' | 'tools'>,
  catalogTool: (id: string) => CatalogTool | undefined,
): ToolSearchProcessorOptions {
  // Session options the processor has no counterpart for fail the scenario instead of being dropped.
  const unmapped = [
    ...(options.index === undefined ? [] : ['index']),
    ...Object.keys(options.memory ?? {}).flatMap((key) => (key === 'ttlMs' ? [] : [`memory.${key}`])),
    ...Object.keys(options.indexOptions ?? {}).flatMap((key) => (key === 'embedder' ? [] : [`indexOptions.${key}`])),
  ];
  if (unmapped.length > 0) throw new Error(`The Mastra processor has no option for ${unmapped.join(', ')}.`);
  const result: ToolSearchProcessorOptions = { tools };
  if (pinned.length > 0) result.pinned = pinned;
  if (options.mode !== undefined) result.mode = options.mode;
  if (options.code !== undefined) result.code = options.code;
  if (options.search) {
    result.search = {};
    if (options.search.limit !== undefined) result.search.topK = options.search.limit;
    if (options.search.minScore !== undefined) result.search.minScore = options.search.minScore;
  }
  if (options.state === 'conversation') result.storage = 'context';
  else if (options.state === 'memory') result.storage = 'in-memory';
  else if (typeof options.state === 'object') result.store = options.state;
  // Anything else is given as it is, for the processor to refuse.
  else if (options.state !== undefined) result.storage = options.state as never;
  if (options.memory?.ttlMs !== undefined) result.ttl = options.memory.ttlMs;
  const filter: PolicyFilter | undefined = options.filter;
  if (filter) {
    result.filter = (args) =>
      filter({
        toolId: args.toolName,
        tool: catalogTool(args.toolName)!,
        phase: args.phase,
        context: args.requestContext?.all,
        threadId: args.threadId,
        resourceId: args.resourceId,
        input: args.input,
      });
  }
  if (options.filterTimeoutMs !== undefined) result.filterTimeoutMs = options.filterTimeoutMs;
  if (options.indexOptions?.embedder) result.embedder = options.indexOptions.embedder;
  if (options.onEvent) result.onEvent = options.onEvent;
  if (options.metaTools) result.metaTools = options.metaTools;
  if (options.descriptionBudget !== undefined) result.descriptionBudget = options.descriptionBudget;
  if (options.catalogListing !== undefined) result.catalogListing = options.catalogListing;
  if (options.instructions !== undefined) result.instructions = options.instructions;
  if (options.preselect !== undefined) result.preselect = options.preselect;
  if (options.feedback !== undefined) result.feedback = options.feedback;
  return result;
}

/**
 * How Mastra answers a call of an agent's own tool whose input its schema rejects: not an error, but
 * a result `{ error: true, message }` that the model reads. It counts as a tool error in a transcript.
 */
function isMastraToolError(output: unknown): output is { error: true; message: string } {
  const result = output as { error?: unknown; message?: unknown } | undefined;
  return result?.error === true && typeof result.message === 'string';
}

/** Mastra DB messages without the tool invocations of the named tools, as context trimming would leave them. */
export function withoutToolInvocations(messages: readonly unknown[], toolNames: readonly string[]): unknown[] {
  const names = new Set(toolNames);
  return messages.map((message) => {
    const content = (message as { content?: { parts?: unknown[] } }).content;
    if (!content || typeof content !== 'object' || !Array.isArray(content.parts)) return message;
    const parts = content.parts.filter((part) => {
      const invocation = (part as { type?: string; toolInvocation?: { toolName?: string } }).toolInvocation;
      return !((part as { type?: string }).type === 'tool-invocation' && names.has(invocation?.toolName ?? ''));
    });
    return { ...(message as object), content: { ...content, parts } };
  });
}

/**
 * The conformance harness for `@toolscout/mastra`: every scenario runs a real Mastra `Agent` with the
 * `ToolSearchProcessor` as its input processor and a scripted `MockLanguageModelV4`. Catalog tools are
 * `createTool` tools (their tags are dropped: Mastra tools have none); the thread is the reserved
 * `mastra__threadId` request-context key; a turn's history is its Mastra DB messages.
 */
export function createMastraHarness(options: { method?: RunMethod } = {}): ConformanceHarness {
  const method = options.method ?? 'generate';
  return {
    createAgent(setup) {
      const tools = setup.tools.map(toCatalogTool);
      const pinned = setup.tools.filter((tool) => tool.pinned).map((tool) => tool.id);
      const processor: ToolSearchProcessor = new ToolSearchProcessor(
        processorOptions(tools, pinned, setup.options, (id) => processor.session.catalog.get(id)),
      );
      const scripted = scriptedModel();
      const agent = new Agent({
        id: 'conformance-agent',
        name: 'Conformance agent',
        instructions: 'Find the tools you need, then use them.',
        model: mastraModel(scripted),
        // Direct tools and host tools are the agent's own: it offers them, and the processor names them to the session.
        tools: Object.fromEntries(
          [...(setup.directTools ?? []), ...(setup.hostTools ?? [])].map((tool) => [tool.id, toCreatedTool(tool)]),
        ),
        inputProcessors: [processor],
      });
      return {
        async run(turn): Promise<Transcript> {
          if (turn.history !== undefined && !Array.isArray(turn.history)) {
            throw new TypeError('The Mastra harness takes the history it returned from an earlier turn.');
          }
          const requestContext = requestContextOf(turn.context ?? {});
          if (turn.threadId) requestContext.set(MASTRA_THREAD_ID_KEY, turn.threadId);
          const result = await runTurn(agent, scripted, {
            prompt: turn.prompt,
            script: turn.script,
            method,
            requestContext,
            history: turn.history as unknown[] | undefined,
          });
          return {
            steps: scripted.offered().map((offered, index) => ({
              offered,
              descriptions: scripted.descriptions(index),
              system: systemOf(scripted.calls[index]),
            })),
            results: scripted.results().map(({ toolName, output, isError }) => ({
              toolName,
              ...(isMastraToolError(output) ? { output: output.message, isError: true } : { output, isError }),
            })),
            history: result.messages,
          };
        },
      };
    },
    // The processor's names for the session options it names its own way (Mastra's).
    optionNames: { 'search.limit': 'search.topK', state: 'storage' },
    trimHistory(history, toolNames) {
      if (!Array.isArray(history)) throw new TypeError('Not a Mastra harness history.');
      return withoutToolInvocations(history, toolNames);
    },
  };
}
