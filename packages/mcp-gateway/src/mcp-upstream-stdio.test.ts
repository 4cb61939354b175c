import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantPids, isAlive, waitFor } from '../../mcp/test-utils/wait.js';
import { nodeServer } from '../test-utils/gateway-process.js';
import type { Logger } from './logger.js';
import { McpGateway } from './mcp-gateway.js';
import type { McpUpstream } from './mcp-upstream.js';
import { McpUpstreamError } from './mcp-upstream-error.js';

const RAW_UPSTREAM = fileURLToPath(new URL('../test-utils/raw-upstream.ts', import.meta.url));

describe('the gateway in front of misbehaving stdio servers (real processes)', { timeout: 20_000 }, () => {
  const warnings: string[] = [];
  const logger: Logger = {
    error: (message) => warnings.push(message),
    warn: (message) => warnings.push(message),
    info: () => {},
    debug: () => {},
  };
  let gateway: McpGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    warnings.length = 0;
  });

  /** Starts a gateway in front of the raw server in `mode`; returns its upstream. */
  async function rawUpstream(mode: string): Promise<McpUpstream> {
    gateway = new McpGateway({
      servers: { raw: nodeServer(RAW_UPSTREAM, [], { RAW_MODE: mode }) },
      // Long enough that "no answer" can only mean a timeout the server really caused.
      connectTimeoutMs: 10_000,
      restart: false,
      logger,
    });
    await gateway.start();
    return gateway.upstreams.get('raw')!;
  }

  it('a tools/list answer that is not JSON-RPC: "could not be read", at once (was: no answer within the timeout)', async () => {
    const upstream = await rawUpstream('unreadable');
    expect(upstream.statusReason).toBe(
      'failed to start: its tools/list answer could not be read: it is not a valid JSON-RPC message',
    );
  });

  it('an output schema too deep for the SDK: "could not be read: it is nested too deeply"', async () => {
    const upstream = await rawUpstream('deep-output');
    expect(upstream.statusReason).toBe(
      'failed to start: its tools/list answer could not be read: it is nested too deeply (Maximum call stack size exceeded)',
    );
  });

  it('an input schema nested too deeply skips that tool only, saying why', async () => {
    const upstream = await rawUpstream('deep-input');
    expect(upstream.status).toBe('ready');
    expect(upstream.toolIds).toEqual(['raw__big', 'raw__garbled', 'raw__small']);
    expect(warnings).toContain(
      'server "raw": tool "deep" skipped: its definition is nested too deeply (Maximum call stack size exceeded)',
    );
  });

  it('a tools/list answer over 10 MB: "sent a message over the 10 MB line limit"', async () => {
    const upstream = await rawUpstream('huge');
    expect(upstream.statusReason).toBe('failed to start: it sent a message over the 10 MB line limit');
  });

  it('a tool answer that is not JSON-RPC fails the call at once, saying so (was: no answer within the timeout)', async () => {
    const upstream = await rawUpstream('ok');
    let failure: unknown;
    try {
      await upstream.callTool('garbled', {});
    } catch (error) {
      failure = error;
    }
    expect(McpUpstreamError.isInstance(failure) && failure.reason).toBe('unreadable');
    expect((failure as Error).message).toBe(
      'MCP server "raw" answered "garbled" with something the gateway could not read: it is not a valid JSON-RPC message.',
    );
    expect(await upstream.callTool('small', {})).toEqual({ content: [{ type: 'text', text: 'small answer' }] });
  });

  it('a tool answer that is JSON-RPC but not the MCP shape fails the call as unreadable, naming the field', async () => {
    const upstream = await rawUpstream('ok');
    let failure: unknown;
    try {
      await upstream.callTool('shapeless', {});
    } catch (error) {
      failure = error;
    }
    expect(McpUpstreamError.isInstance(failure) && failure.reason).toBe('unreadable');
    expect((failure as Error).message).toMatch(
      /^MCP server "raw" answered "shapeless" with something the gateway could not read: it does not fit the MCP schema \(at "content": /,
    );
    expect(await upstream.callTool('small', {})).toEqual({ content: [{ type: 'text', text: 'small answer' }] });
  });

  it('a tool answer over 10 MB fails the call and takes the server down, naming the limit (was: "exited or crashed")', async () => {
    const upstream = await rawUpstream('ok');
    expect(upstream.status).toBe('ready');
    let failure: unknown;
    try {
      await upstream.callTool('big', {});
    } catch (error) {
      failure = error;
    }
    expect(McpUpstreamError.isInstance(failure) && failure.reason).toBe('disconnected');
    expect((failure as Error).message).toBe(
      'The gateway closed its connection to MCP server "raw" while running "big": it sent a message over the 10 MB line limit; it will not be restarted.',
    );
    expect(upstream.statusReason).toBe('it sent a message over the 10 MB line limit');
    expect(warnings).toContain('server "raw" is down: it sent a message over the 10 MB line limit; not restarting');
  });

  it('a server killed while a child of its own holds its stdout is seen going down, and the child goes too', async () => {
    gateway = new McpGateway({
      servers: {
        raw: { command: 'sh', args: ['-c', `sleep 313 & exec "${process.execPath}" "${RAW_UPSTREAM}"`] },
      },
      restart: false,
      logger,
    });
    await gateway.start();
    const upstream = gateway.upstreams.get('raw')!;
    expect(upstream.status).toBe('ready');
    const [child] = descendantPids(upstream.pid!);
    expect(child).toBeDefined();
    process.kill(upstream.pid!, 'SIGKILL');
    await waitFor(() => upstream.status === 'down', 5_000, 'the server to be seen down');
    expect(upstream.statusReason).toBe('the connection closed (the server exited or crashed)');
    await waitFor(() => !isAlive(child!), 5_000, 'its child to exit');
  });
});
