// The public API of @toolscout/mcp, the server wrapper: a catalog served over MCP as a searchable
// catalog, one thread of loaded tools per client session. An explicit list. The gateway in front of
// many MCP servers (and `wrapMcpServer`, a gateway of one in-process SDK server) is its own package,
// `@toolscout/mcp-gateway`.

export { McpConnectionLimitError, McpServerClosedError } from './errors.js';
export {
  type McpConnectable,
  type McpConnectionOptions,
  type McpRequestContext,
  McpToolSearchServer,
  type McpToolSearchServerOptions,
} from './mcp-tool-search-server.js';
export { toCallToolResult, toMcpTool } from './to-mcp-tool.js';
