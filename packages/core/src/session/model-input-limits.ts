/**
 * Bounds on what a model sends to the meta-tools, so that one oversized argument costs a bounded
 * amount of work and of reply. Everything a model writes is untrusted: a name can be a megabyte.
 */
export const MODEL_INPUT_LIMITS = Object.freeze({
  /** Characters of a `search_tools` query that are searched (the rest is ignored). */
  queryLength: 2_000,
  /**
   * The longest tool name (or id) a meta-tool or a call accepts; a longer one is refused with a
   * tool error before any lookup. Provider-safe names have at most 64 characters; real ids rarely
   * more than 150. A tool whose id is longer is still reached by its provider-safe name.
   */
  nameLength: 1_000,
  /** Tool names per `load_tool` or `discover_tools` call. */
  namesPerCall: 50,
  /**
   * Characters of a model-supplied name that are quoted back to it (in errors and telemetry) and
   * searched for "did you mean" suggestions; a longer name is quoted as its start, `…` and its length.
   */
  echoLength: 200,
});

/**
 * A model-supplied name as it may be quoted back: whole when short, else its first
 * `MODEL_INPUT_LIMITS.echoLength` characters, `…` and the original length, e.g.
 * `get_weather_get_wea… (1048576 characters)`. A surrogate pair is never split.
 */
export function clipName(name: string, length: number = MODEL_INPUT_LIMITS.echoLength): string {
  if (name.length <= length) return name;
  return `${nameStart(name, length)}… (${name.length} characters)`;
}

/** The first `length` characters of a name (fewer by one rather than half a surrogate pair). */
export function nameStart(name: string, length: number = MODEL_INPUT_LIMITS.echoLength): string {
  if (name.length <= length) return name;
  const last = name.charCodeAt(length - 1);
  return name.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** The rule a name longer than `MODEL_INPUT_LIMITS.nameLength` breaks, for tool errors. */
export const NAME_LENGTH_RULE = `tool names are at most ${MODEL_INPUT_LIMITS.nameLength} characters`;
