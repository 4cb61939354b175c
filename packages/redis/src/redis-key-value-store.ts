import { createHash } from 'node:crypto';
import { type AppendUniqueOptions, type KeyValueStore, type KeyValueTtlOptions, ToolscoutError } from '@toolscout/core';
import {
  InvalidOptionError,
  StoreDataError,
  StoreUnavailableError,
  UnsupportedOperationError,
} from '@toolscout/core/errors';
import { failureReason, MAX_TIMER_MS, quoteKey } from '@toolscout/core/internal';

/**
 * The part of a node-redis client that this package uses: raw commands. A connected node-redis 5 or 6
 * `createClient()` (or `createClientPool()`) fits as it is. Redis Cluster clients do not (a prefix
 * SCAN would have to visit every node).
 */
export interface RedisCommandClient {
  /**
   * Sends one command, e.g. `['GET', 'key']`, and resolves to its reply; rejects with the Redis error.
   * `abortSignal` (node-redis command option) drops the command from the client's queue when the
   * store stops waiting for it.
   */
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** Options of `createRedisKeyValueStore`. */
export interface RedisKeyValueStoreOptions {
  /** Put before every key this store reads or writes, e.g. `'myapp:'` to share a database. Default `''`. */
  prefix?: string;
  /** The `COUNT` hint of each `SCAN` step in `deletePrefix`. Default 500. */
  scanCount?: number;
  /**
   * How long one command may wait for Redis, in ms, before it fails with `StoreUnavailableError`
   * (and is dropped from the client's queue). While Redis is down, node-redis keeps reconnecting
   * and queues commands (node-redis 5 without any limit), so this bounds every call. A command
   * already sent when it times out may still run on the server (an add may have been applied).
   * `0` = no limit of the store's own. Default 2,000.
   */
  commandTimeoutMs?: number;
}

/**
 * A `KeyValueStore` on Redis, with atomic `appendUnique`/`removeValues` (Lua) and SCAN-based
 * `deletePrefix` and `scanKeys`.
 */
export interface RedisKeyValueStore extends KeyValueStore {
  deletePrefix(prefix: string): Promise<void>;
  scanKeys(prefix: string, suffix: string): AsyncIterable<readonly string[]>;
  appendUnique(
    key: string,
    values: readonly string[],
    options?: AppendUniqueOptions,
  ): Promise<{ all: string[]; added: string[] }>;
  removeValues(key: string, values: readonly string[]): Promise<{ all: string[] }>;
}

/**
 * Reads the JSON array of strings at a key, dropping duplicates. Returns `list, nil, seen`, or
 * `nil, problem` when the value is not a JSON array of strings. A key of another type raises WRONGTYPE.
 */
const READ_LIST = `
local function read_list(key)
  local raw = redis.call('GET', key)
  local list, seen = {}, {}
  if not raw then return list, nil, seen end
  local ok, decoded = pcall(cjson.decode, raw)
  if not ok then return nil, 'not valid JSON' end
  if type(decoded) ~= 'table' then return nil, 'expected a JSON array of tool ids' end
  local n = 0
  for _ in pairs(decoded) do n = n + 1 end
  if n ~= #decoded or (n == 0 and not string.match(raw, '^%s*%[%s*%]%s*$')) then
    return nil, 'expected a JSON array of tool ids'
  end
  for i = 1, n do
    local v = decoded[i]
    if type(v) ~= 'string' then return nil, 'expected a JSON array of tool ids (strings), but item ' .. (i - 1) .. ' is not a string' end
    if not seen[v] then
      seen[v] = true
      list[#list + 1] = v
    end
  end
  return list, nil, seen
end
`;

/**
 * KEYS[1] = key, ARGV[1] = TTL in ms (0 = none), ARGV[2] = the most values the list may hold (0 = no
 * limit), ARGV[3..] = values. Returns {all, added}; beyond the limit, appends nothing: {list, {}}.
 */
const APPEND_UNIQUE = `${READ_LIST}
local list, problem, seen = read_list(KEYS[1])
if problem then return redis.error_reply('TOOLSCOUT_STORE_DATA ' .. problem) end
local added = {}
for i = 3, #ARGV do
  local v = ARGV[i]
  if not seen[v] then
    seen[v] = true
    added[#added + 1] = v
  end
end
local max = tonumber(ARGV[2])
if max > 0 and #list + #added > max then return {list, {}} end
for i = 1, #added do list[#list + 1] = added[i] end
local ttl = tonumber(ARGV[1])
if #added > 0 then
  if ttl > 0 then
    redis.call('SET', KEYS[1], cjson.encode(list), 'PX', ttl)
  else
    redis.call('SET', KEYS[1], cjson.encode(list))
  end
elseif #list > 0 then
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
end
return {list, added}
`;

/** KEYS[1] = key, ARGV = values to remove. Keeps the key's expiry; deletes it when empty. Returns the rest. */
const REMOVE_VALUES = `${READ_LIST}
local list, problem = read_list(KEYS[1])
if problem then return redis.error_reply('TOOLSCOUT_STORE_DATA ' .. problem) end
local drop = {}
for i = 1, #ARGV do drop[ARGV[i]] = true end
local kept = {}
for i = 1, #list do
  if not drop[list[i]] then kept[#kept + 1] = list[i] end
end
if #kept ~= #list then
  if #kept == 0 then
    redis.call('DEL', KEYS[1])
  else
    redis.call('SET', KEYS[1], cjson.encode(kept), 'KEEPTTL')
  end
end
return kept
`;

interface Script {
  /** What errors call it. */
  name: string;
  source: string;
  sha1: string;
}

function script(name: string, source: string): Script {
  return { name, source, sha1: createHash('sha1').update(source).digest('hex') };
}

const appendUniqueScript = script('appendUnique', APPEND_UNIQUE);
const removeValuesScript = script('removeValues', REMOVE_VALUES);

const STORE_NAME = 'Redis key-value store';
const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A reply as a string: node-redis gives strings, or Buffers under a Buffer type mapping. */
function replyString(reply: unknown): string | undefined {
  if (reply === null || reply === undefined) return undefined;
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return Buffer.from(reply).toString('utf8');
  return String(reply);
}

function replyStrings(key: string, reply: unknown): string[] {
  if (!Array.isArray(reply)) throw new StoreDataError(key, `Redis replied ${typeof reply} where a list was expected`);
  return reply.map((item) => replyString(item) ?? '');
}

/** Escapes SCAN MATCH glob characters, so a prefix matches itself only. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

function pxArgs(options: KeyValueTtlOptions | undefined): string[] {
  const ttlMs = options?.ttlMs;
  if (ttlMs === undefined || ttlMs === 0) return [];
  if (!Number.isFinite(ttlMs) || ttlMs < 0) {
    throw new InvalidOptionError('ttlMs', `Option "ttlMs" must be a finite number of milliseconds >= 0, got ${ttlMs}.`);
  }
  return ['PX', String(Math.max(1, Math.ceil(ttlMs)))];
}

/**
 * A `KeyValueStore` on a node-redis client that the caller creates and connects (and closes):
 *
 * - values are Redis strings; `ttlMs` becomes `PX`, and `get` with `ttlMs` restarts it (`GETEX`);
 * - `appendUnique` and `removeValues` are Lua scripts (`EVALSHA`, falling back to `EVAL`), so
 *   appends from any number of clients are atomic: one JSON array, load order kept, no duplicates;
 * - `deletePrefix` walks the keys with `SCAN ... MATCH` (never `KEYS`) and `UNLINK`s them;
 *   `scanKeys` walks them the same way.
 *
 * Needs Redis 6.2 or later (or Valkey). A value that is not what toolscout wrote (not a JSON array
 * of strings, or not a Redis string) gives `StoreDataError` naming the key, and is left untouched.
 * A command that fails (Redis down, refusing, or silent beyond `commandTimeoutMs`) gives
 * `StoreUnavailableError` naming the command and key, with the client's error as `cause`.
 */
export function createRedisKeyValueStore(
  client: RedisCommandClient,
  options: RedisKeyValueStoreOptions = {},
): RedisKeyValueStore {
  if (typeof client?.sendCommand !== 'function') {
    throw new InvalidOptionError(
      'client',
      'Expected a node-redis client (from createClient() of the "redis" package), which has sendCommand().',
    );
  }
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') {
    throw new InvalidOptionError('prefix', `Option "prefix" must be a string, got ${typeof prefix}.`);
  }
  const scanCount = options.scanCount ?? 500;
  if (!Number.isSafeInteger(scanCount) || scanCount < 1) {
    throw new InvalidOptionError('scanCount', `Option "scanCount" must be a whole number >= 1, got ${scanCount}.`);
  }
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (
    typeof commandTimeoutMs !== 'number' ||
    !Number.isFinite(commandTimeoutMs) ||
    commandTimeoutMs < 0 ||
    commandTimeoutMs > MAX_TIMER_MS
  ) {
    throw new InvalidOptionError(
      'commandTimeoutMs',
      `Option "commandTimeoutMs" must be a number of milliseconds from 0 (no timeout) to ${MAX_TIMER_MS}, got ${String(commandTimeoutMs)}.`,
    );
  }

  /** Sends a command; rejects with StoreUnavailableError when Redis has not replied within the timeout. */
  async function send(args: string[], operation: string): Promise<unknown> {
    if (commandTimeoutMs === 0) return client.sendCommand(args);
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = `no reply from Redis within ${commandTimeoutMs} ms (commandTimeoutMs)`;
        reject(new StoreUnavailableError(STORE_NAME, operation, reason));
        abort.abort(); // after the rejection above, so that the race reports the timeout
      }, commandTimeoutMs);
    });
    try {
      return await Promise.race([client.sendCommand(args, { abortSignal: abort.signal }), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs a command on `key` (`label` names it in errors; default the command). Redis WRONGTYPE and
   * script data errors become StoreDataError; a server that is down, slow or refusing becomes
   * StoreUnavailableError.
   */
  async function onKey(key: string, args: string[], label = args[0]): Promise<unknown> {
    const operation = `${label} ${quoteKey(key)}`;
    try {
      return await send(args, operation);
    } catch (error) {
      if (ToolscoutError.isInstance(error)) throw error;
      const message = errorMessage(error);
      if (message.includes('WRONGTYPE')) {
        throw new StoreDataError(key, 'the Redis key holds a list, set or hash, not a string', { cause: error });
      }
      if (message.includes('TOOLSCOUT_STORE_DATA')) {
        const problem = message.slice(message.indexOf('TOOLSCOUT_STORE_DATA') + 'TOOLSCOUT_STORE_DATA '.length);
        throw new StoreDataError(key, problem, { cause: error });
      }
      if (/unknown command/i.test(message)) {
        throw new UnsupportedOperationError(
          `${args[0]}`,
          `The Redis server does not know "${args[0]}": @toolscout/redis needs Redis 6.2 or later (or Valkey). ${message}`,
          { cause: error },
        );
      }
      if (message.startsWith('NOSCRIPT')) throw error;
      throw new StoreUnavailableError(STORE_NAME, operation, failureReason(error), { cause: error });
    }
  }

  async function runScript(key: string, { source, sha1, name }: Script, argv: string[]): Promise<unknown> {
    try {
      return await onKey(key, ['EVALSHA', sha1, '1', key, ...argv], name);
    } catch (error) {
      if (!errorMessage(error).startsWith('NOSCRIPT')) throw error;
      return onKey(key, ['EVAL', source, '1', key, ...argv], name);
    }
  }

  /** The keys matching a `SCAN` pattern, one batch per `SCAN` step (`label` names the walk in errors). */
  async function* scan(label: string, match: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const reply = await onKey(label, ['SCAN', cursor, 'MATCH', match, 'COUNT', String(scanCount)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new Error('Unexpected SCAN reply from Redis.');
      cursor = replyString(reply[0]) ?? '0';
      yield replyStrings(label, reply[1]);
    } while (cursor !== '0');
  }

  return {
    async get(key, ttl) {
      const fullKey = prefix + key;
      const px = pxArgs(ttl);
      const reply = await onKey(fullKey, px.length > 0 ? ['GETEX', fullKey, ...px] : ['GET', fullKey]);
      return replyString(reply);
    },

    async set(key, value, ttl) {
      const fullKey = prefix + key;
      await onKey(fullKey, ['SET', fullKey, value, ...pxArgs(ttl)]);
    },

    async delete(key) {
      const fullKey = prefix + key;
      await onKey(fullKey, ['DEL', fullKey]);
    },

    async deletePrefix(keyPrefix) {
      const full = prefix + keyPrefix;
      if (full === '') {
        throw new UnsupportedOperationError(
          'deletePrefix',
          'deletePrefix refuses an empty prefix: it would delete every key of the database.',
        );
      }
      for await (const keys of scan(full, `${escapeGlob(full)}*`)) {
        if (keys.length > 0) await onKey(full, ['UNLINK', ...keys]);
      }
    },

    async *scanKeys(keyPrefix, suffix) {
      const full = prefix + keyPrefix;
      for await (const keys of scan(full, `${escapeGlob(full)}*${escapeGlob(suffix)}`)) {
        const own = keys.filter((key) => key.startsWith(prefix) && key.endsWith(suffix));
        yield own.map((key) => key.slice(prefix.length));
      }
    },

    async appendUnique(key, values, options) {
      const fullKey = prefix + key;
      const px = pxArgs(options);
      const maxValues = options?.maxValues ?? 0;
      if (!Number.isSafeInteger(maxValues) || maxValues < 0) {
        throw new InvalidOptionError(
          'maxValues',
          `Option "maxValues" must be a whole number >= 0 (0 = no limit), got ${maxValues}.`,
        );
      }
      const reply = await runScript(fullKey, appendUniqueScript, [px[1] ?? '0', String(maxValues), ...values]);
      if (!Array.isArray(reply) || reply.length !== 2) {
        throw new StoreDataError(fullKey, 'the append script gave an unexpected reply');
      }
      return { all: replyStrings(fullKey, reply[0]), added: replyStrings(fullKey, reply[1]) };
    },

    async removeValues(key, values) {
      const fullKey = prefix + key;
      const reply = await runScript(fullKey, removeValuesScript, [...values]);
      return { all: replyStrings(fullKey, reply) };
    },
  };
}
