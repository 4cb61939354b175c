import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The environment variables a stdio server gets from the gateway's environment by default, on
 * top of the MCP SDK's minimal set (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`; on Windows
 * `APPDATA`, `TEMP`, `USERPROFILE`, ...): what a server needs to reach the network and behave like
 * the machine it runs on. Proxies (upper and lower case), CA certificates, time zone, locale, the
 * temporary folder and the XDG base folders. No credentials: tokens and API keys go in a server's
 * `env`, or are named in its `envPassthrough`. A proxy URL that embeds a password does pass.
 */
export const DEFAULT_ENV_PASSTHROUGH: readonly string[] = Object.freeze([
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TEMP',
  'TMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
]);

/** What of a stdio server's config shapes its environment. */
export interface UpstreamEnvironmentConfig {
  /** Set as given, over everything else. */
  env?: Record<string, string>;
  /** More names to pass through from the gateway's environment, besides {@link DEFAULT_ENV_PASSTHROUGH}. */
  envPassthrough?: readonly string[];
}

/**
 * The environment a stdio server starts with: the SDK's safe default set, then every name of
 * {@link DEFAULT_ENV_PASSTHROUGH} and `envPassthrough` that is set in this process, then `env`.
 * Values that start with `()` (exported shell functions) are never passed through.
 */
export function upstreamEnvironment(config: UpstreamEnvironmentConfig): Record<string, string> {
  const env = getDefaultEnvironment();
  for (const name of [...DEFAULT_ENV_PASSTHROUGH, ...(config.envPassthrough ?? [])]) {
    const value = process.env[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return { ...env, ...config.env };
}
