import { describe, expect, it } from 'vitest';
import { GATEWAY_OPERATIONS, runGateway } from './gateway.js';

describe('runGateway', () => {
  it('runs clients against a real gateway, then counts the sessions left as they leave', async () => {
    const progress: string[] = [];
    const [result] = await runGateway({
      clients: [3],
      calls: 2,
      idleMs: 500,
      onProgress: (line) => progress.push(line),
    });
    if (!result || 'error' in result) throw new Error(`the level did not run: ${JSON.stringify(result)}`);
    expect(result.errorSamples).toEqual([]);
    expect(result).toMatchObject({ clients: 3, callsPerClient: 2, errors: 0, timedOut: false, ops: 20 });
    expect(GATEWAY_OPERATIONS.map((operation) => result.operations[operation].count)).toEqual([3, 3, 3, 3, 6, 2]);
    for (const operation of GATEWAY_OPERATIONS) {
      expect(result.operations[operation].p99Ms).toBeGreaterThanOrEqual(result.operations[operation].p50Ms);
    }
    // Clients 0 and 2 leave with DELETE; client 1 drops its connections, and its session expires
    // once idle for 500 ms (it may already have while the others ran).
    expect(result.sessions).toMatchObject({
      dropped: 1,
      afterIdle: 0,
      idleMs: 500,
      expiredAfterMs: expect.any(Number),
    });
    expect(result.sessions.peak).toBeGreaterThanOrEqual(2);
    expect(result.sessions.afterLeaving).toBeLessThanOrEqual(1);
    expect(result.threadsLeft).toBe(0);
    for (const figures of [result.memory.rssMB, result.memory.heapMB]) {
      expect(figures.before).toBeGreaterThan(0);
      expect(figures.peak).toBeGreaterThanOrEqual(figures.before);
    }
    expect(result.cpu.gatewayS).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatch(/^gateway: 3 clients: \d+ ops\/s, 0 errors/);
  });

  it("stops the clients at the run's time limit and says so, then still counts the sessions left", async () => {
    // 20 clients of 1,000 calls each: far more than any machine answers in 4 s.
    const [result] = await runGateway({ clients: [20], calls: 1000, timeoutMs: 4000, idleMs: 500 });
    if (!result || 'error' in result) throw new Error(`the level did not run: ${JSON.stringify(result)}`);
    expect(result.timedOut).toBe(true);
    expect(result.errors).toBeGreaterThan(0);
    expect(result.operations.call.count).toBeLessThan(20 * 1000);
    expect(result.sessions.afterIdle).toBe(0);
  });

  it('refuses a level beyond the bound', async () => {
    await expect(runGateway({ clients: [1001] })).rejects.toThrow(
      "A level's clients must be an integer from 1 to 1000, got 1001.",
    );
  });
});
