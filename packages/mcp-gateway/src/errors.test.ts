import { ToolscoutError } from '@toolscout/core';
import { InvalidOptionError } from '@toolscout/core/errors';
import { McpConnectionLimitError } from '@toolscout/mcp';
import { describe, expect, it } from 'vitest';
import { GatewayUsageError } from './cli.js';
import { MessageTooLargeError } from './json-rpc-lines.js';
import { createStderrLogger } from './logger.js';
import { McpUpstreamError } from './mcp-upstream-error.js';

describe("the gateway's error classes", () => {
  const errors = [
    ['GatewayUsageError', 'mcp-cli-usage', new GatewayUsageError('--config is required'), GatewayUsageError],
    ['MessageTooLargeError', 'mcp-message-too-large', new MessageTooLargeError(1024), MessageTooLargeError],
    ['McpUpstreamError', 'mcp-upstream', new McpUpstreamError('github', 'timeout', 'slow'), McpUpstreamError],
  ] as const;

  it('are recognised by their own marker: never a base error with the same code, nor one another', () => {
    for (const [name, code, error, type] of errors) {
      expect(error).toMatchObject({ name, code });
      expect(type.isInstance(error), name).toBe(true);
      expect(ToolscoutError.isInstance(error), name).toBe(true);
      expect(type.isInstance(new ToolscoutError(code, 'a look-alike')), name).toBe(false);
      expect(McpConnectionLimitError.isInstance(error), name).toBe(false);
      for (const [, , other, otherType] of errors) {
        if (other !== error) expect(otherType.isInstance(error), name).toBe(false);
      }
    }
  });

  it('a logger of an unknown level is an InvalidOptionError naming `level`', () => {
    let caught: unknown;
    try {
      createStderrLogger({ level: 'loud' as never });
    } catch (error) {
      caught = error;
    }
    expect(InvalidOptionError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ option: 'level', message: expect.stringContaining('level must be one of') });
  });
});
