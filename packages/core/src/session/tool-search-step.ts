import { InvalidArgumentError } from '../errors.js';
import { validateInput } from '../schema/schema.js';
import type { CatalogTool } from '../types.js';
import { describeValue } from '../values.js';
import {
  type CallFailure,
  executionFailed,
  invalidArguments,
  notAtThisStep,
  notExecutable,
  notLoaded,
  suggestionHint,
  unknownTool,
} from './messages.js';
import { executeMetaTool } from './meta-tool-handlers.js';
import { clipName, MODEL_INPUT_LIMITS } from './model-input-limits.js';
import type { PolicyCheck } from './policy.js';
import type { StepContext } from './step-context.js';
import type {
  CallAuthorization,
  ExecuteOptions,
  OfferedTool,
  StepRequest,
  ToolCallError,
  ToolCallOutcome,
} from './step-types.js';

/**
 * One step of a session: the tools offered to the model and the handler of its calls. Calls made in
 * the same step see each other's loads in their results; loaded tools are offered from the next step.
 */
export class ToolSearchStep<TTool = unknown> {
  /** The tools offered at this step, in order. */
  readonly tools: readonly OfferedTool<TTool>[];
  /** Their names, in order (e.g. the AI SDK's `activeTools`). */
  readonly toolNames: readonly string[];
  /** Catalog tool ids loaded when the step began, in load order. */
  readonly loadedIds: readonly string[];
  /**
   * What to tell the model about tool search, for the framework's system channel (the session's
   * `instructions` option; undefined when it is `false`). The same at every step of a session.
   */
  readonly instructions: string | undefined;
  readonly #session: StepContext<TTool>;
  /** Catalog tool ids loaded at this step: at its start and by its calls so far. */
  readonly #loadedNow: Set<string>;
  /** Of the tools loaded at this step, the name each is offered under, by id. */
  readonly #loadedAs: Map<string, string>;
  readonly #byName: Map<string, OfferedTool<TTool>>;

  /** Made by `ToolSearchSession.prepareStep` (and `stepForCall`), with what the step asks of its session. */
  constructor(
    session: StepContext<TTool>,
    readonly request: StepRequest,
    tools: OfferedTool<TTool>[],
    loadedIds: string[],
  ) {
    this.#session = session;
    this.tools = tools;
    this.toolNames = tools.map((tool) => tool.name);
    this.loadedIds = loadedIds;
    this.instructions = session.instructions;
    this.#loadedNow = new Set(loadedIds);
    this.#loadedAs = new Map(tools.flatMap((tool) => (tool.tool ? [[tool.tool.id, tool.name] as const] : [])));
    this.#byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Whether the model is offered a tool of this name at this step. */
  offers(name: string): boolean {
    return this.#byName.has(name);
  }

  /**
   * Keeps this step for the tool calls the model made at it (their call ids), so that
   * `session.stepForCall` hands it to each of them; replaces the thread's previously kept step.
   * Needs a thread id; the last step of at most 1,000 threads is kept.
   */
  expectCalls(callIds: Iterable<string>): void {
    this.#session.expectCalls(this, callIds);
  }

  /**
   * Answers a call the model made at this step: meta-tools are answered by the session; catalog
   * tools are checked (offered, allowed, arguments valid) and run through their `execute`. Never
   * throws for the model's mistakes: they come back as `{ ok: false, error }` with a message
   * that says what to do instead.
   */
  async execute(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ToolCallOutcome> {
    checkName(name);
    const allowed = this.#session.policyFor(this.request);
    const offered = this.#byName.get(name);
    if (offered?.kind === 'meta' && offered.role) {
      const call = {
        session: this.#session,
        request: this.request,
        loadedNow: this.#loadedNow,
        loadedAs: this.#loadedAs,
        allowed,
        unknownTool: (toolName: string) => this.#unknownTool(toolName, allowed),
        validate: (tool: CatalogTool<TTool>, toolInput: unknown) => this.#validate(tool, toolInput),
        run: (tool: CatalogTool<TTool>, toolInput: unknown) => this.#run(tool, toolInput, options),
      };
      return executeMetaTool(call, offered.role, name, input);
    }
    const authorization = await this.#authorizeWith(name, input, allowed);
    if (!authorization.ok) return authorization;
    return this.#run(authorization.tool, authorization.input, options);
  }

  /**
   * Checks a call of a catalog (or direct) tool without running it, for hosts that run tools
   * themselves: the tool must be offered at this step and allowed by the policy's `call` phase, and
   * the input must match its schema.
   */
  async authorize(name: string, input: unknown): Promise<CallAuthorization<TTool>> {
    checkName(name);
    return this.#authorizeWith(name, input, this.#session.policyFor(this.request));
  }

  /**
   * The error for a call the host could not route to any of its tools (the AI SDK's
   * `NoSuchToolError` in `repairToolCall`), for the host to answer the model with. A name this step
   * does not offer gets what {@link authorize} answers (not loaded, or unknown with suggestions, as
   * the policy allows); a name it offers but the host left out of the model's tools (the user
   * narrowed them) gets an `unknown-tool` error that sends the model back to the tools it was given.
   * Either is reported as a `self-correction` event.
   */
  async refuseUnrouted(name: string): Promise<ToolCallError> {
    checkName(name);
    if (!this.#byName.has(name)) {
      const authorization = await this.#authorizeWith(name, undefined, this.#session.policyFor(this.request));
      if (!authorization.ok) return authorization.error;
    }
    this.#selfCorrection('unknown-tool', name, []);
    return notAtThisStep(name).error;
  }

  async #authorizeWith(name: string, input: unknown, allowed: PolicyCheck<TTool>): Promise<CallAuthorization<TTool>> {
    const session = this.#session;
    if (name.length > MODEL_INPUT_LIMITS.nameLength) return this.#unknownTool(name, allowed);
    const offered = this.#byName.get(name);
    const tool = offered?.tool ?? session.resolve(name);
    if (!tool || offered?.kind === 'meta') return this.#unknownTool(name, allowed);
    if (!offered) {
      // "Load it first" only when loading it would get it offered; else it reads like an unknown tool.
      if (!(await allowed(tool, session.loadPhases()))) return this.#unknownTool(name, allowed);
      this.#selfCorrection('not-loaded', name, [tool.toolName]);
      return notLoaded(tool, name, session.mode, (role) => session.metaToolName(role));
    }
    if (!(await allowed(tool, ['call'], input))) return this.#unknownTool(name, allowed);
    return this.#validate(tool, input);
  }

  async #validate(tool: CatalogTool<TTool>, input: unknown): Promise<CallAuthorization<TTool>> {
    const result = await validateInput(tool, input ?? {});
    if (result.success) return { ok: true, tool, input: result.value };
    this.#selfCorrection('invalid-arguments', tool.toolName, []);
    return invalidArguments(tool.toolName, result.issues);
  }

  async #run(tool: CatalogTool<TTool>, input: unknown, options: ExecuteOptions): Promise<ToolCallOutcome> {
    const { request } = this;
    if (!tool.execute) return notExecutable(tool);
    const started = performance.now();
    const event = {
      type: 'call',
      threadId: request.threadId,
      resourceId: request.resourceId,
      toolId: tool.id,
    } as const;
    try {
      const output = await tool.execute(input, {
        toolId: tool.id,
        threadId: request.threadId,
        resourceId: request.resourceId,
        context: request.context,
        abortSignal: options.abortSignal,
        host: options.host,
      });
      this.#session.emit({ ...event, ok: true, latencyMs: performance.now() - started });
      await this.#session.called(request, tool, true);
      return { ok: true, output, toolId: tool.id };
    } catch (cause) {
      const latencyMs = performance.now() - started;
      this.#session.emit({ ...event, ok: false, latencyMs, error: 'execution-failed' });
      await this.#session.called(request, tool, false);
      return executionFailed(tool, cause);
    }
  }

  /**
   * The answer for a name that is no tool, or a tool the policy hides: the same words for both. A
   * name is quoted cut (`clipName`); one longer than any tool name gets no suggestions.
   */
  async #unknownTool(name: string, allowed: PolicyCheck<TTool>): Promise<CallFailure> {
    const tooLong = name.length > MODEL_INPUT_LIMITS.nameLength;
    const suggestions = tooLong ? [] : await this.#session.suggest(name, allowed);
    const toolName = clipName(name, tooLong ? 50 : undefined);
    this.#selfCorrection('unknown-tool', toolName, suggestions);
    const hint = suggestionHint(suggestions, this.#session.metaToolName('search'));
    return unknownTool(toolName, tooLong, suggestions, hint);
  }

  /** Reports a mistake of the model that its answer tells how to correct. */
  #selfCorrection(kind: 'unknown-tool' | 'not-loaded' | 'invalid-arguments', toolName: string, suggestions: string[]) {
    const { threadId, resourceId } = this.request;
    this.#session.emit({ type: 'self-correction', threadId, resourceId, kind, toolName, suggestions });
  }
}

/**
 * The name of a call as a step takes it: a string (whatever the model wrote; its mistakes are
 * answered as tool errors), else the host's mistake, an {@link InvalidArgumentError}.
 */
function checkName(name: unknown): void {
  if (typeof name !== 'string') {
    throw new InvalidArgumentError(
      'name',
      `name must be the called tool's name, a string; got ${describeValue(name)}.`,
    );
  }
}
