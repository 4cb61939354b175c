import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PolicyTimeoutError } from '../errors.js';
import type { CatalogTool } from '../types.js';
import { type PolicyFilter, PolicyGate, type PolicyRequest } from './policy.js';

const tool = { id: 'send_email', toolName: 'send_email' } as CatalogTool;

function ask(gate: PolicyGate, toolId = 'send_email') {
  return gate.ask({ toolId, tool, phase: 'call', context: undefined });
}

const never = () => new Promise<boolean>(() => {});

describe('PolicyGate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes sync and async answers as they are, and leaves no timer behind', async () => {
    const gate = new PolicyGate(async (request) => request.toolId !== 'b', 1_000);
    expect(await ask(gate, 'a')).toEqual({ allowed: true });
    expect(await ask(gate, 'b')).toEqual({ allowed: false, reason: 'denied' });
    expect(await ask(new PolicyGate(() => false), 'a')).toEqual({ allowed: false, reason: 'denied' });
    expect(await ask(new PolicyGate(undefined), 'a')).toEqual({ allowed: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails closed when the filter throws or rejects', async () => {
    const failure = new Error('policy service down');
    for (const filter of [
      () => {
        throw failure;
      },
      () => Promise.reject(failure),
    ] as PolicyFilter[]) {
      expect(await ask(new PolicyGate(filter))).toEqual({ allowed: false, reason: 'filter-error', error: failure });
    }
  });

  it('counts an answer that never comes as "not allowed" at the timeout, and aborts the signal it handed out', async () => {
    const seen: PolicyRequest[] = [];
    const gate = new PolicyGate((request) => {
      seen.push(request);
      return never();
    }, 50);
    const answer = ask(gate);
    await vi.advanceTimersByTimeAsync(49);
    expect(seen[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await answer;
    expect(result).toMatchObject({ allowed: false, reason: 'filter-timeout' });
    const error = (result as { error?: unknown }).error;
    expect(PolicyTimeoutError.isInstance(error) && error.message).toMatch(
      /did not answer within 50 ms \(tool "send_email", phase "call"\).*raise filterTimeoutMs/,
    );
    expect(seen[0]?.signal?.aborted).toBe(true);
    expect(seen[0]?.signal?.reason).toBe(error);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives one operation one deadline: after it, the filter is not asked again', async () => {
    let asked = 0;
    const gate = new PolicyGate(() => {
      asked++;
      return never();
    }, 50);
    const first = Promise.all([ask(gate, 'a'), ask(gate, 'b')]);
    await vi.advanceTimersByTimeAsync(50);
    expect((await first).map((answer) => answer.allowed)).toEqual([false, false]);
    expect(await ask(gate, 'c')).toMatchObject({ allowed: false, reason: 'filter-timeout' });
    expect(asked).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not start the clock for sync answers, and a late rejection is not left unhandled', async () => {
    let reject: (error: Error) => void = () => {};
    const gate = new PolicyGate((request) => {
      if (request.toolId === 'sync') return true;
      return new Promise<boolean>((_, fail) => {
        reject = fail;
      });
    }, 50);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await ask(gate, 'sync')).toEqual({ allowed: true });
    const late = ask(gate, 'async');
    await vi.advanceTimersByTimeAsync(50);
    expect(await late).toMatchObject({ allowed: false, reason: 'filter-timeout' });
    reject(new Error('too late'));
    await vi.advanceTimersByTimeAsync(0);
  });
});
