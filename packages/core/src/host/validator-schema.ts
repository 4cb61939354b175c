import { InvalidToolError } from '../errors.js';
import { failureReason } from '../stores/key-value-store.js';
import type { JsonSchema, SchemaLike } from '../types.js';
import { isRecord } from '../values.js';
import { standardJsonSchema } from './standard-json-schema.js';

/** What a validate function of a framework's schema returns (the AI SDK's and zod's `safeParse` shape). */
export type ValidatorResult = { success: true; value: unknown } | { success: false; error: unknown };

/** A framework's schema as its two parts: its JSON Schema, and its own validation when it has one. */
export interface ValidatorSchemaLike {
  readonly jsonSchema: unknown;
  readonly validate?: ((value: unknown) => ValidatorResult | PromiseLike<ValidatorResult>) | undefined;
}

/** The issues of a failed validation: the library's own (zod's `issues`, on the error or its cause), else its reason. */
export function validationIssues(error: unknown): { message: string; path?: PropertyKey[] }[] {
  const cause = isRecord(error) ? error.cause : undefined;
  const source = [error, cause].find((value) => isRecord(value) && Array.isArray(value.issues));
  if (!isRecord(source)) return [{ message: failureReason(cause instanceof Error ? cause : error) }];
  return (source.issues as unknown[]).map((issue) => {
    const record = isRecord(issue) ? issue : {};
    return {
      message: typeof record.message === 'string' ? record.message : String(issue),
      path: Array.isArray(record.path) ? (record.path as PropertyKey[]) : undefined,
    };
  });
}

/** The JSON Schema of a framework schema, read up front, or an {@link InvalidToolError} of the tool's `inputSchema`. */
function readJsonSchema(
  toolName: string,
  read: () => ValidatorSchemaLike,
): { json: JsonSchema; schema: ValidatorSchemaLike } {
  let schema: ValidatorSchemaLike;
  let json: unknown;
  try {
    schema = read();
    json = schema.jsonSchema;
  } catch (error) {
    const message = `Tool "${toolName}": its inputSchema cannot be read: ${failureReason(error)}`;
    throw new InvalidToolError(message, 'inputSchema', { cause: error });
  }
  if (isRecord(json) && typeof json.then === 'function') {
    throw new InvalidToolError(
      `Tool "${toolName}": its inputSchema resolves asynchronously, but toolscout indexes tools up front. Await the JSON Schema and pass the resolved schema.`,
      'inputSchema',
    );
  }
  if (!isRecord(json)) {
    throw new InvalidToolError(`Tool "${toolName}": its inputSchema is not a JSON Schema object.`, 'inputSchema');
  }
  return { json, schema };
}

/**
 * A framework's schema (what `read` returns: its JSON Schema and, maybe, a validate function) as a
 * tool's `inputSchema`: its JSON Schema, wrapped in a Standard Schema with that JSON Schema when it
 * validates, so core validates with the tool's own rules (transforms and defaults included). The
 * schema is read once, up front (core indexes tools before any call): a `read` that throws, a JSON
 * Schema that is a promise or not an object, is an {@link InvalidToolError} naming the tool.
 */
export function validatorSchema(toolName: string, read: () => ValidatorSchemaLike, vendor = 'toolscout'): SchemaLike {
  const { json, schema } = readJsonSchema(toolName, read);
  const validate = schema.validate;
  if (validate === undefined) return json;
  return standardJsonSchema(
    json,
    async (value: unknown) => {
      const result = await validate(value);
      return result.success ? { value: result.value } : { issues: validationIssues(result.error) };
    },
    vendor,
  ) as SchemaLike;
}
