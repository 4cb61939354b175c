import { InvalidOptionError } from '@toolscout/core/errors';

/** Where the gateway reports what happens. stdout is the protocol: logs never go there. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  /** Details (every call, every re-index, upstream servers' stderr): shown with `--verbose`. */
  debug(message: string): void;
}

/** How much a {@link createStderrLogger} writes, from the most to the least. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export interface StderrLoggerOptions {
  /** The lowest level written. Default `warn`. */
  level?: LogLevel;
  /** Where lines go. Default `process.stderr`. */
  stream?: { write(text: string): unknown };
  /** Put before every line. Default `toolscout-mcp`. */
  prefix?: string;
}

/** A logger that writes one line per message to stderr (or `stream`). */
export function createStderrLogger(options: StderrLoggerOptions = {}): Logger {
  const level = options.level ?? 'warn';
  if (!LEVELS.includes(level)) {
    throw new InvalidOptionError('level', `level must be one of ${LEVELS.join(', ')}; got ${JSON.stringify(level)}.`);
  }
  const stream = options.stream ?? process.stderr;
  const prefix = options.prefix ?? 'toolscout-mcp';
  const threshold = LEVELS.indexOf(level);
  const write = (at: LogLevel, message: string) => {
    if (LEVELS.indexOf(at) < threshold) return;
    const tag = at === 'info' ? '' : ` ${at}:`;
    stream.write(`${prefix}:${tag} ${message}\n`);
  };
  return {
    error: (message) => write('error', message),
    warn: (message) => write('warn', message),
    info: (message) => write('info', message),
    debug: (message) => write('debug', message),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
