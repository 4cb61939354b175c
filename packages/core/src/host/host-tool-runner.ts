/**
 * A host's way of running one of its framework's tools for the call in progress (with the
 * framework's per-call runtime), handed to `step.execute(name, input, { host: runner })`. A
 * descriptor made by `toolLikeDescriptor` runs its tool through it after the session has checked the
 * call (offered, allowed, arguments valid), and through its own `execute` when there is none.
 */
export class HostToolRunner<TTool = unknown> {
  constructor(readonly run: (tool: TTool, input: unknown) => Promise<unknown>) {}
}
