// The public API of @toolscout/mcp-gateway: tool search in front of many MCP servers (the
// `toolscout-mcp` command and its library), and `wrapMcpServer` for one in-process SDK server. An
// explicit list. The searchable server it serves through is `@toolscout/mcp`'s McpToolSearchServer.

// What passes through besides tools: resources, prompts, logs, progress, the servers' requests
export { DEFAULT_PAGE_SIZE } from '@toolscout/core/sources';
// What the transports serve: a gateway, or @toolscout/mcp's search server
export type { McpConnectable } from '@toolscout/mcp';
// The toolscout-mcp command line
export {
  GATEWAY_USAGE,
  type GatewayArgs,
  type GatewayCliIO,
  GatewayUsageError,
  parseGatewayArgs,
  runGatewayCli,
} from './cli.js';
// Transports: stdio and Streamable HTTP
export { DEFAULT_MAX_MESSAGE_BYTES, MessageTooLargeError } from './json-rpc-lines.js';
export { createStderrLogger, type Logger, type LogLevel, type StderrLoggerOptions, silentLogger } from './logger.js';
// The gateway, and the wrapper of one SDK server
export {
  McpGateway,
  type McpGatewayOptions,
  type McpGatewayServer,
  type McpServerLike,
  type WrapMcpServerOptions,
  wrapMcpServer,
} from './mcp-gateway.js';
// The mcpServers config of Claude Desktop, Cursor and others
export {
  isHttpServerConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
  type ParseMcpServersConfigOptions,
  parseMcpServersConfig,
  readMcpServersConfig,
  serverNameProblem,
} from './mcp-servers-config.js';
// Upstream servers: tools mirrored into a catalog, calls forwarded, restarts with backoff
export {
  type McpRestartOptions,
  McpUpstream,
  type McpUpstreamOptions,
  type McpUpstreamStatus,
  type UpstreamRequestOptions,
} from './mcp-upstream.js';
export { McpUpstreamError, type McpUpstreamErrorReason } from './mcp-upstream-error.js';
export type { OfferHit, OfferKind } from './offer-index.js';
export { assertServeHttpOptions, type HttpEndpoint, type ServeHttpOptions, serveHttp } from './serve-http.js';
export {
  answerMalformedMessages,
  type ServeStdioOptions,
  StdioLineServerTransport,
  type StdioSession,
  serveStdio,
} from './serve-stdio.js';
// Stdio servers: their process (in a group of its own) and their environment
export { StdioUpstreamTransport, type StdioUpstreamTransportOptions } from './stdio-upstream-transport.js';
export type {
  ForwardedCall,
  UpstreamClientHooks,
  UpstreamClientRequest,
  UpstreamNotification,
  UpstreamRequestExtra,
} from './upstream-client-hooks.js';
export {
  DEFAULT_ENV_PASSTHROUGH,
  type UpstreamEnvironmentConfig,
  upstreamEnvironment,
} from './upstream-environment.js';
