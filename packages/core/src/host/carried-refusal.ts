import { ToolCallFailedError } from '../errors.js';
import type { ToolCallError } from '../session/step-types.js';
import { isRecord } from '../values.js';

/**
 * The session's refusal of a call, carried through a host whose repair hook can only answer with
 * another tool call: the refusal travels in that call's input under a key of the carrier's own, and
 * is thrown where the input arrives (an input refinement or the tool's execute).
 */
export interface RefusalCarrier {
  /** The input (JSON text) of a stand-in call that carries `error` (its `cause` is left out). */
  carry(error: ToolCallError): string;
  /** Throws the {@link ToolCallFailedError} of the refusal `input` carries; does nothing for other input. */
  rethrow(input: unknown): void;
}

/** A {@link RefusalCarrier} with a key no model or tool input can guess. */
export function createRefusalCarrier(): RefusalCarrier {
  const key = `__toolscout_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
  return {
    carry: ({ cause: _cause, ...error }) => JSON.stringify({ [key]: error }),
    rethrow(input) {
      const carried = isRecord(input) ? input[key] : undefined;
      if (isRecord(carried) && typeof carried.message === 'string') {
        throw new ToolCallFailedError(carried as unknown as ToolCallError);
      }
    },
  };
}
