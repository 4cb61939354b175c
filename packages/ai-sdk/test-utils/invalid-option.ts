import { InvalidOptionError } from '@toolscout/core/errors';

/**
 * The `option` of the `InvalidOptionError` that `create` throws; a description of anything else it
 * throws (so that a failed expectation says what came instead), or undefined when it throws nothing.
 */
export function invalidOptionOf(create: () => unknown): string | undefined {
  try {
    create();
  } catch (error) {
    return InvalidOptionError.isInstance(error) ? error.option : `not an InvalidOptionError: ${String(error)}`;
  }
  return undefined;
}
