import { InvalidToolError } from '../errors.js';
import { producesJsonSchema, toJsonSchema } from '../schema/schema.js';
import type { JsonSchema, SchemaLike, ToolDescriptor, ToolExecutionContext } from '../types.js';
import { HostToolRunner } from './host-tool-runner.js';

/** What a framework's tool declares, as a host reads it off the tool object. */
export interface DeclaredTool<TTool> {
  /** The framework's tool, kept in the descriptor's `tool`. */
  tool: TTool;
  /** What the tool is, for error messages (`LangChain tool`). */
  kind: string;
  /** The name the model calls it by: the descriptor's `name`, and its `id` unless `fields.id` is given. */
  name: string;
  /** Its description; anything but a string counts as none. */
  description?: unknown;
  /** Its input schema as the framework holds it: a Standard Schema, a JSON Schema, or one `convertSchema` reads. */
  schema?: unknown;
  /**
   * Converts a schema that cannot produce JSON Schema itself (zod 3, say) to JSON Schema, with the
   * framework's own converter; undefined leaves the schema to core. Not asked for a Standard JSON Schema.
   */
  convertSchema?: (schema: unknown) => unknown;
  /** Runs the tool when the host gave no {@link HostToolRunner} (outside the host's agent loop). */
  execute: (input: unknown, context: ToolExecutionContext) => unknown;
}

/** The tool's input schema as JSON Schema, resolved once; an {@link InvalidToolError} (`inputSchema`) saying why not. */
function inputSchemaOf({ kind, name, schema, convertSchema }: DeclaredTool<unknown>): JsonSchema | undefined {
  if (schema === undefined || schema === null) return undefined;
  try {
    const converted = convertSchema !== undefined && !producesJsonSchema(schema) ? convertSchema(schema) : undefined;
    return (converted ?? toJsonSchema(schema as SchemaLike)) as JsonSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `${kind} "${name}": its schema cannot be converted to JSON Schema: ${reason}`;
    throw new InvalidToolError(message, 'inputSchema', { cause: error });
  }
}

/**
 * A core descriptor of a framework's tool: its name (and id, by default), description and input
 * schema as JSON Schema (what core indexes, validates against and shows), the tool itself in
 * `tool`, and an `execute` that runs the tool through the host's {@link HostToolRunner} when the
 * call comes with one (so the tool gets the framework's runtime of the call), else through
 * `like.execute`. `fields` adds descriptor fields (`id`, `tags`, `pinned`, ...).
 */
export function declaredToolDescriptor<TTool>(
  like: DeclaredTool<TTool>,
  fields: Partial<Omit<ToolDescriptor<TTool>, 'name' | 'description' | 'tool' | 'execute'>> = {},
): ToolDescriptor<TTool> {
  const { tool, name, description } = like;
  const inputSchema = inputSchemaOf(like as DeclaredTool<unknown>);
  const descriptor: ToolDescriptor<TTool> = {
    ...fields,
    id: fields.id ?? name,
    name,
    description: typeof description === 'string' ? description : '',
    tool,
    execute: (input, context) =>
      context.host instanceof HostToolRunner ? context.host.run(tool, input) : like.execute(input, context),
  };
  if (inputSchema !== undefined) descriptor.inputSchema = inputSchema;
  return descriptor;
}
