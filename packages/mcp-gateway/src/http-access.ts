import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { InvalidOptionError } from '@toolscout/core/errors';

/** Who may reach an HTTP endpoint: the `Host` it answers to, the browser origins, a bearer token. */
export interface HttpAccessOptions {
  /** The address the endpoint listens on (its own name is an allowed `Host`). */
  host: string;
  /** More `Host` names or addresses to answer to, besides loopback (any port). */
  allowedHosts?: readonly string[] | undefined;
  /** More browser origins to accept, besides loopback ones, e.g. `https://app.example.com`. */
  allowedOrigins?: readonly string[] | undefined;
  /** The bearer token every request must carry. Required when `host` is not loopback. */
  authToken?: string | undefined;
}

/** Why a request is turned away: the HTTP status, a message for the client, and extra headers. */
export interface AccessRefusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

/** An environment variable `toolscout-mcp` reads the bearer token from. */
export const AUTH_TOKEN_ENV = 'TOOLSCOUT_MCP_AUTH_TOKEN';

const MIN_TOKEN_LENGTH = 16;
const WILDCARDS = new Set(['0.0.0.0', '[::]']);
/** A Host header: a name or IPv4 address, or an IPv6 address in brackets; then an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;
const HOST_NAME = /^[a-z0-9.-]+$/i;

/**
 * A host (a name, an IPv4 address, an IPv6 address with or without brackets) in one spelling:
 * lower case, IPv6 compressed and in brackets. Undefined when it is none of these.
 */
function canonicalHost(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(bare)) return new URL(`http://[${bare}]`).hostname;
  if (host !== bare || !HOST_NAME.test(host)) return undefined;
  return host.toLowerCase();
}

/**
 * Whether a host name or address is this machine's loopback: `localhost`, an IPv4 address in
 * 127.0.0.0/8 written as four decimal numbers, or `::1`. Exact: `127.0.0.1.example.com` and `127.1`
 * are names a resolver may send anywhere, so they are not loopback.
 */
export function isLoopback(host: string): boolean {
  const canonical = canonicalHost(host);
  if (canonical === undefined) return false;
  return canonical === 'localhost' || canonical === '[::1]' || (isIPv4(canonical) && canonical.startsWith('127.'));
}

function isWildcard(host: string): boolean {
  return WILDCARDS.has(canonicalHost(host) ?? '');
}

/** The addresses of this machine's network interfaces, as `Host` headers spell them. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => {
      const address = info && canonicalHost(info.address.split('%')[0] ?? '');
      return address ? [address] : [];
    });
}

/** A list option's entries; throws when it is not an array of strings. */
function stringList(name: string, value: readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new InvalidOptionError(name, `${name} must be an array of strings; got ${JSON.stringify(value)}.`);
  }
  return value;
}

function allowedHostSet(options: HttpAccessOptions): Set<string> | undefined {
  const configured = stringList('allowedHosts', options.allowedHosts).map((entry) => {
    const canonical = canonicalHost(entry);
    if (canonical !== undefined) return canonical;
    if (HOST_HEADER.test(entry)) {
      throw new InvalidOptionError(
        'allowedHosts',
        `allowedHosts entry "${entry}" has a port: give the host without a port (any port is accepted).`,
      );
    }
    throw new InvalidOptionError(
      'allowedHosts',
      `allowedHosts entry "${entry}" is not a host name or address; give names like "mcp.example.com" or addresses like "192.168.1.10", without a scheme or port.`,
    );
  });
  // Listening on every interface with no names given: no way to know which names clients use, so
  // the bearer token (required there) is the guard. DNS rebinding cannot send a token it never had.
  if (isWildcard(options.host) && configured.length === 0) return undefined;
  const own = isWildcard(options.host) ? interfaceAddresses() : [canonicalHost(options.host) ?? options.host];
  return new Set([...configured, ...own]);
}

/** `scheme://host[:port]` of an http(s) origin, or undefined when the value is not one. */
function parseOrigin(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url : undefined;
}

function allowedOriginSet(options: HttpAccessOptions): Set<string> {
  return new Set(
    stringList('allowedOrigins', options.allowedOrigins).map((entry) => {
      const url = parseOrigin(entry);
      if (url === undefined || !/^https?:\/\/[^/]+\/?$/i.test(entry)) {
        throw new InvalidOptionError(
          'allowedOrigins',
          `allowedOrigins entry "${entry}" is not an origin; give scheme, host and optional port, e.g. "https://app.example.com".`,
        );
      }
      return url.origin;
    }),
  );
}

/** The token's SHA-256: compared instead of the token, so a comparison's time says nothing of its length. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function tokenDigest(token: string | undefined): Buffer | undefined {
  if (token === undefined) return undefined;
  if (typeof token !== 'string' || token.trim() === '') {
    throw new InvalidOptionError('authToken', 'authToken is empty: give a random secret, e.g. `openssl rand -hex 32`.');
  }
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new InvalidOptionError(
      'authToken',
      'authToken must be visible ASCII characters without spaces (it travels in an Authorization header).',
    );
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new InvalidOptionError(
      'authToken',
      `authToken must have at least ${MIN_TOKEN_LENGTH} characters; use a random secret, e.g. \`openssl rand -hex 32\`.`,
    );
  }
  return digest(token);
}

function hostRefusal(header: string, allowed: ReadonlySet<string>): AccessRefusal | undefined {
  const match = HOST_HEADER.exec(header);
  const host = match ? canonicalHost(match[1]!) : undefined;
  if (host !== undefined && (isLoopback(host) || allowed.has(host))) return undefined;
  const others = [...allowed].filter((name) => !isLoopback(name));
  const extra = others.length > 0 ? `, ${others.join(', ')}` : '';
  return {
    status: 403,
    message: `Forbidden: Host "${header}" is not allowed (a guard against DNS rebinding). This endpoint answers to localhost, 127.0.0.1 and [::1]${extra}; allow another name with allowedHosts (toolscout-mcp: --allowed-host).`,
  };
}

function originRefusal(origin: string, allowed: ReadonlySet<string>): AccessRefusal | undefined {
  const url = parseOrigin(origin);
  if (url !== undefined && (isLoopback(url.hostname) || allowed.has(url.origin))) return undefined;
  return {
    status: 403,
    message: `Forbidden: Origin "${origin}" is not allowed. Browsers may call this endpoint only from loopback pages (http(s)://localhost, 127.0.0.1 or [::1], any port); allow another origin with allowedOrigins (toolscout-mcp: --allowed-origin).`,
  };
}

function tokenRefusal(authorization: string | undefined, expected: Buffer): AccessRefusal | undefined {
  const given = /^bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (given !== undefined && timingSafeEqual(digest(given), expected)) return undefined;
  const realm = 'Bearer realm="toolscout-mcp"';
  if (given === undefined) {
    return {
      status: 401,
      headers: { 'www-authenticate': realm },
      message: `Unauthorized: this endpoint needs a bearer token: send "Authorization: Bearer <token>" with the token it was started with (authToken; toolscout-mcp: --auth-token-file or ${AUTH_TOKEN_ENV}).`,
    };
  }
  return {
    status: 401,
    headers: { 'www-authenticate': `${realm}, error="invalid_token"` },
    message: 'Unauthorized: the bearer token is not valid for this endpoint.',
  };
}

/**
 * The access check of an HTTP endpoint, built once from its options (which it validates: throws
 * `InvalidOptionError`). For each request it answers the refusal, or undefined to let it through:
 *
 * - `Host` must be a loopback name or address, an `allowedHosts` entry or the listening address
 *   itself (parsed exactly, any port), against DNS rebinding. On a wildcard address (`0.0.0.0`,
 *   `::`) without `allowedHosts`, the Host is not checked: the required token guards instead; with
 *   `allowedHosts`, the machine's own interface addresses are allowed too.
 * - `Origin`, when present, must be a loopback origin or in `allowedOrigins`; `null` is refused.
 * - With `authToken`, `Authorization: Bearer <token>` (compared in constant time on SHA-256
 *   digests). Listening beyond loopback without a token is refused at start.
 */
export function createAccessCheck(options: HttpAccessOptions): (req: IncomingMessage) => AccessRefusal | undefined {
  const token = tokenDigest(options.authToken);
  if (token === undefined && !isLoopback(options.host)) {
    throw new InvalidOptionError(
      'host',
      `Listening on host "${options.host}" is not a loopback address: any machine that reaches it could call your tools. Give an auth token (authToken; toolscout-mcp: --auth-token-file or ${AUTH_TOKEN_ENV}), or listen on 127.0.0.1.`,
    );
  }
  const hosts = allowedHostSet(options);
  const origins = allowedOriginSet(options);
  return (req) => {
    const refusal = hosts && hostRefusal(req.headers.host ?? '', hosts);
    if (refusal) return refusal;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const refused = originRefusal(origin, origins);
      if (refused) return refused;
    }
    return token && tokenRefusal(req.headers.authorization, token);
  };
}
