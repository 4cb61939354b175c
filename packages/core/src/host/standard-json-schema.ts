import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../types.js';

/** A Standard Schema that also describes itself as JSON Schema (Standard JSON Schema's `jsonSchema`). */
export type StandardJsonSchema<T = unknown> = StandardSchemaV1<T> & {
  readonly '~standard': { readonly jsonSchema: { input(): JsonSchema; output(): JsonSchema } };
};

/** A validation that accepts any value as it is. */
function acceptAny<T>(value: unknown): StandardSchemaV1.Result<T> {
  return { value: value as T };
}

/**
 * A JSON Schema and a validation as one Standard JSON Schema: for a framework whose schemas are a
 * JSON Schema plus a validate function (read into core), or that needs a schema object where core
 * has a JSON Schema (offered tools). Without `validate` it accepts any value, for calls the session
 * validates itself with the tool's own schema.
 */
export function standardJsonSchema<T = unknown>(
  jsonSchema: JsonSchema,
  validate: (value: unknown) => StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>> = acceptAny,
  vendor = 'toolscout',
): StandardJsonSchema<T> {
  return {
    '~standard': {
      version: 1,
      vendor,
      validate,
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}
