import { ToolCatalog } from '../catalog/catalog.js';
import type { LoadedStateStrategy, ToolSearchSessionOptions } from '../session/session-options.js';
import { ToolSearchSession } from '../session/tool-search-session.js';
import type { ToolDescriptor } from '../types.js';
import { isIterable } from '../values.js';
import { checkHostOptions, type HostOptionRule } from './host-options.js';

/** How a host's entry point makes its session from the options it takes: see {@link hostSession}. */
export interface HostSessionSpec<TTool> {
  /** What the entry point takes, for the error when its options are not an object ("createX takes { catalog, ... }"). */
  usage: string;
  /** The options the host adds to core's, checked first (see {@link checkHostOptions}); they do not reach the session. */
  rules: Readonly<Record<string, HostOptionRule>>;
  /** Converts a list of the framework's tools (descriptors among them passing through) given as `catalog` or `tools`. */
  convert: (tools: Iterable<never>) => ToolDescriptor<TTool>[];
  /** The session's strategy for each `state` of the host's own (`{ 'agent-state': 'conversation' }`). */
  states?: Readonly<Record<string, LoadedStateStrategy>>;
}

/**
 * The session of a host's entry point, made from the options the entry point takes: its own
 * options checked by `spec.rules` (an `InvalidOptionError` naming the first bad one), the rest
 * handed to the session, which checks them in turn; `catalog` and `tools` given as lists converted
 * by `spec.convert` (a `ToolCatalog`, or what is no list, as given: the session names the option),
 * and a `state` of the host's own as the strategy `spec.states` maps it to.
 */
export function hostSession<TTool>(options: unknown, spec: HostSessionSpec<TTool>): ToolSearchSession<TTool> {
  checkHostOptions(options, spec.usage, spec.rules);
  const sessionOptions = Object.fromEntries(
    Object.entries(options).filter(([option]) => !Object.hasOwn(spec.rules, option)),
  );
  const toolsOf = (tools: unknown) =>
    isIterable(tools) && !(tools instanceof ToolCatalog) ? spec.convert(tools as Iterable<never>) : tools;
  const { state } = options;
  return new ToolSearchSession({
    ...sessionOptions,
    catalog: toolsOf(options.catalog),
    tools: toolsOf(options.tools),
    state: (typeof state === 'string' && spec.states?.[state]) || state,
  } as ToolSearchSessionOptions<TTool>);
}
