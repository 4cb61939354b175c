/**
 * What one run hands back, within `maxOutputChars`: its `console.log` lines and its return value.
 * The value has the budget first; logs get what it leaves. Whatever is cut ends with a marker that
 * says how much was left out, and the host never holds more logs than the budget.
 */
export class CodeOutput {
  readonly #max: number;
  readonly #lines: string[] = [];
  #kept = 0;
  /** Characters of logs not kept (past the budget). */
  #dropped = 0;

  constructor(maxChars: number) {
    this.#max = maxChars;
  }

  /** Keeps one log line, as far as the budget goes. */
  log(line: string): void {
    const room = this.#max - this.#kept;
    if (room <= 0) {
      this.#dropped += line.length;
      return;
    }
    const kept = line.length <= room ? line : line.slice(0, room);
    this.#dropped += line.length - kept.length;
    this.#kept += kept.length;
    this.#lines.push(kept);
  }

  /** The result and logs to hand back, cut to the budget (`truncated` when anything was cut). */
  finish(valueJson: string | undefined): { result: unknown; logs: string[]; truncated: boolean } {
    let result: unknown = null;
    let used = 0;
    let truncated = false;
    if (valueJson !== undefined) {
      if (valueJson.length <= this.#max) {
        result = parseOrText(valueJson);
        used = valueJson.length;
      } else {
        result = valueJson.slice(0, this.#max) + cutMarker(valueJson.length - this.#max, 'of the return value');
        used = this.#max;
        truncated = true;
      }
    }
    const { logs, cut } = this.#logsWithin(this.#max - used);
    return { result, logs, truncated: truncated || cut };
  }

  /** The log lines within `room` characters, the last one cut with a marker when some are left out. */
  #logsWithin(room: number): { logs: string[]; cut: boolean } {
    const logs: string[] = [];
    let left = room;
    let omitted = this.#dropped;
    for (const line of this.#lines) {
      if (left <= 0) omitted += line.length;
      else if (line.length <= left) logs.push(line);
      else {
        logs.push(line.slice(0, left));
        omitted += line.length - left;
      }
      left -= line.length;
    }
    if (omitted === 0) return { logs, cut: false };
    logs.push(cutMarker(omitted, 'of logs'));
    return { logs, cut: true };
  }
}

/** The marker that ends a cut text. */
export function cutMarker(characters: number, what: string): string {
  return `…[cut: ${characters.toLocaleString('en-US')} more characters ${what}]`;
}

/**
 * JSON text from the sandbox as host values: plain data, with every `__proto__` key left out (an
 * own `__proto__` property would set an object's prototype when a host copies it with
 * `Object.assign`). Throws a `SyntaxError` for text that is not JSON.
 */
export function parseSandboxJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}

/** JSON text as values, or as it is when it is not JSON (a sandbox of the host's that encodes badly). */
function parseOrText(text: string): unknown {
  try {
    return parseSandboxJson(text);
  } catch {
    return text;
  }
}
