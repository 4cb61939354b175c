import { readdirSync, readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Rejects with a message naming what was awaited when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `Timed out after ${ms} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
  );
}

/** Records what a client's `listChanged.tools` handler receives, to await the next change. */
export function recordToolListChanges() {
  const lists: string[][] = [];
  const waiters: { count: number; resolve: (names: string[]) => void }[] = [];
  return {
    /** Pass as the Client's options. */
    clientOptions: {
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error: Error | null, tools: Tool[] | null) => {
            if (error) return;
            lists.push((tools ?? []).map((tool) => tool.name));
            for (const waiter of waiters.splice(0)) {
              if (lists.length >= waiter.count) waiter.resolve(lists[lists.length - 1]!);
              else waiters.push(waiter);
            }
          },
        },
      },
    },
    /** Every list the handler received, in order. */
    lists,
    /** Resolves with the list of the `count`-th change (1-based) once it has arrived. */
    change(count: number, ms = 5_000): Promise<string[]> {
      if (lists.length >= count) return Promise.resolve(lists[count - 1]!);
      return withTimeout(
        new Promise<string[]>((resolve) => waiters.push({ count, resolve })),
        ms,
        `tools/list_changed #${count}`,
      );
    },
  };
}

/** Whether a process runs (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** The processes below `pid` (children, grandchildren, ...), from /proc. */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process exited while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
