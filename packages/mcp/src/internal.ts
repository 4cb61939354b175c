// @toolscout/mcp/internal: what @toolscout/mcp-gateway shares with the server wrapper. Not a public
// API: it may change in any release.

export { answerInvalidParams, isZodError, type ZodLikeError } from './invalid-params.js';
