// `run_tool_code`: runs the model's program in the session's sandbox, every bridge call answered
// through the step it was made at (the same policy, validation, telemetry and `execute` as a call
// of `call_tool`), within the run's limits.
import { compactText } from '../../text/compact-text.js';
import { isRecord } from '../../values.js';
import { validationFailure } from '../messages.js';
import { executeMetaTool, type MetaToolCall } from '../meta-tool-handlers.js';
import { MODEL_INPUT_LIMITS } from '../model-input-limits.js';
import type { ToolCallOutcome } from '../step-types.js';
import type { CodeRunEvent } from '../telemetry.js';
import { MAX_CODE_LENGTH, type ResolvedCodeMode } from './code-options.js';
import { CodeOutput, parseSandboxJson } from './code-output.js';
import type { CodeBridgeOperation, CodeSandboxEnd } from './code-sandbox.js';

type Reply = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** The answer of `run_tool_code` (named `name`) to a call with `args`, in code mode (`code`). */
export async function runToolCode<TTool>(
  call: MetaToolCall<TTool>,
  code: ResolvedCodeMode,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCallOutcome> {
  const source = args.code;
  if (typeof source !== 'string' || source.trim() === '') {
    return validationFailure(name, `"${name}" needs a "code" string: the body of an async function.`, [
      { path: 'code', message: 'expected a non-empty string' },
    ]);
  }
  if (source.length > MAX_CODE_LENGTH) {
    return validationFailure(name, `"code" must be at most ${MAX_CODE_LENGTH.toLocaleString('en-US')} characters.`, [
      { path: 'code', message: `expected at most ${MAX_CODE_LENGTH} characters` },
    ]);
  }
  const started = performance.now();
  const bridge = new Bridge(call, code.maxBridgeCalls);
  const output = new CodeOutput(code.maxOutputChars);
  let end: CodeSandboxEnd;
  try {
    end = await code.sandbox.run(
      source,
      {
        bridge: (operation, json) => bridge.answer(operation, json),
        log: (line) => output.log(line),
        signal: bridge.signal,
      },
      { timeoutMs: code.timeoutMs, memoryBytes: code.memoryBytes },
    );
  } finally {
    bridge.end();
  }
  if (bridge.hostError !== undefined) throw bridge.hostError;
  const ended = endOf(end, bridge);
  const { threadId, resourceId } = call.request;
  call.session.emit({
    type: 'code',
    threadId,
    resourceId,
    sandbox: code.sandbox.name,
    ended: ended.ended,
    ...(ended.limit && { limit: ended.limit }),
    calls: { ...bridge.counts },
    toolIds: [...bridge.toolIds],
    latencyMs: performance.now() - started,
    ...(end.memoryBytes !== undefined && { memoryBytes: end.memoryBytes }),
    ...(ended.ended !== 'returned' && { error: ended.message }),
  });
  const { result, logs, truncated } = output.finish(end.ended === 'returned' ? end.valueJson : undefined);
  if (ended.ended === 'returned') {
    return { ok: true, output: { result, ...(logs.length > 0 && { logs }), ...(truncated && { truncated }) } };
  }
  const message = logs.length > 0 ? `${ended.message}\nLogs:\n${logs.join('\n')}` : ended.message;
  return { ok: false, error: { code: 'execution-failed', toolName: name, message } };

  function endOf(sandboxEnd: CodeSandboxEnd, calls: Bridge<TTool>): Ended {
    if (calls.overBudget) {
      const message = `The code made more than ${code.maxBridgeCalls} tool calls and was stopped.`;
      return { ended: 'over-budget', limit: 'bridge-calls', message };
    }
    switch (sandboxEnd.ended) {
      case 'returned':
        return { ended: 'returned', message: '' };
      case 'timed-out':
        return { ended: 'timed-out', message: `The code ran out of time (${code.timeoutMs} ms) and was stopped.` };
      case 'out-of-memory': {
        const mib = Math.round(code.memoryBytes / 1024 / 1024);
        return { ended: 'over-budget', limit: 'memory', message: `The code ran out of memory (${mib} MiB).` };
      }
      default:
        return { ended: 'threw', message: `The code threw: ${compactText(sandboxEnd.error ?? 'an error', 2_000)}` };
    }
  }
}

interface Ended {
  ended: CodeRunEvent['ended'];
  limit?: CodeRunEvent['limit'];
  message: string;
}

/** The bridge of one run: answers its calls through the step, counts them, and refuses them once it ended. */
class Bridge<TTool> {
  readonly counts = { search: 0, describe: 0, call: 0 };
  readonly toolIds: string[] = [];
  overBudget = false;
  /** A host error (not the model's mistake) a bridge call met: it ends the run and is thrown to the host. */
  hostError: unknown;
  readonly #call: MetaToolCall<TTool>;
  readonly #max: number;
  readonly #stop = new AbortController();
  #made = 0;
  #ended = false;

  constructor(call: MetaToolCall<TTool>, max: number) {
    this.#call = call;
    this.#max = max;
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** After the run: every later call is refused, and never reaches the session. */
  end(): void {
    this.#ended = true;
  }

  async answer(operation: CodeBridgeOperation, argsJson: string): Promise<string> {
    if (this.#ended) return reply({ ok: false, code: 'run-ended', message: 'The run has ended.' });
    if (++this.#made > this.#max) {
      this.overBudget = true;
      this.#stop.abort();
      return reply({ ok: false, code: 'over-budget', message: `At most ${this.#max} tool calls per run.` });
    }
    this.counts[operation]++;
    let args: unknown;
    try {
      args = parseSandboxJson(argsJson);
    } catch {
      return reply({ ok: false, code: 'invalid-arguments', message: 'The arguments are not JSON.' });
    }
    try {
      return reply(await this.#answer(operation, Array.isArray(args) ? args : []));
    } catch (error) {
      this.hostError = error;
      this.#stop.abort();
      return reply({ ok: false, code: 'execution-failed', message: 'The host failed; the run is stopped.' });
    }
  }

  async #answer(operation: CodeBridgeOperation, [first, second]: unknown[]): Promise<Reply> {
    if (operation === 'search') return this.#search(first, second);
    if (typeof first !== 'string' || first === '' || first.length > MODEL_INPUT_LIMITS.nameLength) {
      return {
        ok: false,
        code: 'invalid-arguments',
        message: `tools.${operation}: the first argument must be a tool id from tools.search.`,
      };
    }
    if (operation === 'describe') {
      const outcome = await executeMetaTool(this.#call, 'describe', 'tools.describe', { toolName: first });
      if (!outcome.ok) return failed(outcome.error);
      const { name, ...rest } = outcome.output as { name: string };
      return { ok: true, value: { id: name, ...rest } };
    }
    const outcome = await executeMetaTool(this.#call, 'call', 'tools.call', {
      toolName: first,
      arguments: second ?? {},
    });
    const ran = outcome.ok
      ? outcome.toolId
      : outcome.error.code === 'execution-failed' && this.#call.session.resolve(first)?.id;
    if (ran) this.toolIds.push(ran);
    return outcome.ok ? { ok: true, value: outcome.output } : failed(outcome.error);
  }

  async #search(query: unknown, options: unknown): Promise<Reply> {
    if (typeof query !== 'string') {
      return { ok: false, code: 'invalid-arguments', message: 'tools.search: the query must be a string.' };
    }
    const limit =
      isRecord(options) && Number.isInteger(options.limit) && (options.limit as number) >= 1
        ? (options.limit as number)
        : undefined;
    const { session, request, allowed } = this.#call;
    const text = query.slice(0, MODEL_INPUT_LIMITS.queryLength);
    const hits = text.trim() === '' ? [] : await session.search(text, request, allowed);
    const budget = session.descriptionBudget();
    return {
      ok: true,
      value: hits.slice(0, limit).map((hit) => ({
        id: hit.tool.toolName,
        description: compactText(hit.tool.description, budget),
        score: Math.round(hit.score * 100) / 100,
      })),
    };
  }
}

function failed(error: { code: string; message: string }): Reply {
  return { ok: false, code: error.code, message: error.message };
}

/** A reply as JSON text; a value that is not JSON (a BigInt, a cycle) is a failed reply. */
function reply(value: Reply): string {
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify({ ok: false, code: 'execution-failed', message: "The tool's result is not JSON." });
  }
}
