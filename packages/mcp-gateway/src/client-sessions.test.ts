import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type ClientRequestExtra, ClientSession, routeUpstreamRequest } from './client-sessions.js';

const session = () => new ClientSession({} as Server, {});
const extra = (id: number) => ({ requestId: id }) as unknown as ClientRequestExtra;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidRequest);
    return (error as McpError).message;
  }
  throw new Error('expected a refusal');
}

describe('routeUpstreamRequest: the session a request of an upstream is for', () => {
  it('is the session with a request to that upstream in progress, with its latest request', () => {
    const [a, b] = [session(), session()];
    a.startCall('github', extra(1));
    const done = a.startCall('github', extra(2));
    b.startCall('memory', extra(3));
    expect(routeUpstreamRequest([a, b], 'github', 'sampling/createMessage')).toEqual({ session: a, extra: extra(2) });
    done();
    expect(routeUpstreamRequest([a, b], 'github', 'sampling/createMessage').extra).toEqual(extra(1));
  });

  it('is the sole session of a gateway that serves one at a time (stdio) when no request is in progress', () => {
    const only = session();
    expect(routeUpstreamRequest([only], 'github', 'roots/list', true)).toEqual({ session: only });
    // Over HTTP, the one session connected now is not the only one the server's state concerns.
    expect(refusal(() => routeUpstreamRequest([only], 'github', 'roots/list'))).toContain(
      'no client request to it is in progress and 1 client session(s) are or may be connected',
    );
  });

  it('is refused when two sessions wait on that upstream, or none does and several are connected', () => {
    const [a, b] = [session(), session()];
    a.startCall('github', extra(1));
    b.startCall('github', extra(2));
    expect(refusal(() => routeUpstreamRequest([a, b], 'github', 'elicitation/create'))).toContain(
      '2 sessions have requests to it in progress',
    );
    expect(refusal(() => routeUpstreamRequest([session(), session()], 'github', 'roots/list', true))).toContain(
      'no client request to it is in progress and 2 client session(s) are or may be connected',
    );
    expect(refusal(() => routeUpstreamRequest([], 'github', 'roots/list'))).toContain('no client is connected');
  });
});
