import { ImportError } from '../errors.js';

/** What `fn` throws; throws itself when `fn` returns, so a test cannot pass on a missing throw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** What `fn`'s promise rejects with; throws itself when it resolves. */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The `ImportError` that `fn` throws; anything else it throws is thrown on, and a return fails. */
export function importError(fn: () => unknown): ImportError {
  const error = thrown(fn);
  if (ImportError.isInstance(error)) return error;
  throw error;
}
