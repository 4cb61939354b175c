import { InvalidToolError } from '../errors.js';
import { failureReason } from '../stores/key-value-store.js';

/**
 * A tool's description as core indexes it, before any call: a string as it is, a function (a
 * description made per call from a tool context) called once with `emptyContext`. A function that
 * fails so is an {@link InvalidToolError} of the tool's `description`.
 */
export function upFrontDescription<C>(
  toolName: string,
  description: string | ((context: C) => string) | undefined,
  emptyContext: C,
): string | undefined {
  if (typeof description !== 'function') return description;
  try {
    return description(emptyContext);
  } catch (error) {
    throw new InvalidToolError(
      `Tool "${toolName}": its description is a function that failed without a tool context (${failureReason(error)}); toolscout indexes descriptions up front. Give a string, or a function that works with an empty context.`,
      'description',
      { cause: error },
    );
  }
}
