import { toolDefinition } from '@tanstack/ai';
import { z } from 'zod';

/** What the fixture's tools ran, in order. */
export interface FixtureRun {
  tool: string;
  input: unknown;
  /** Whether TanStack AI's per-call context (with `emitCustomEvent`) reached the tool. */
  hadChatContext: boolean;
}

/**
 * TanStack AI tools as users write them (`toolDefinition(...).server(...)`, zod 4 input schemas):
 * a searchable catalog (`get_weather` with a defaulted unit, `send_email`, `create_invoice`) and a
 * `calculator` the agent has itself, each recording its runs.
 */
export function createFixtureTools() {
  const runs: FixtureRun[] = [];
  const record = (tool: string, input: unknown, context: unknown) => {
    const hadChatContext =
      typeof (context as { emitCustomEvent?: unknown } | undefined)?.emitCustomEvent === 'function';
    runs.push({ tool, input, hadChatContext });
  };
  const getWeather = toolDefinition({
    name: 'get_weather',
    description: 'Get the current weather forecast for a city.',
    inputSchema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
  }).server(async (input, context) => {
    record('get_weather', input, context);
    return { city: input.city, unit: input.unit, forecast: 'sunny' };
  });
  const sendEmail = toolDefinition({
    name: 'send_email',
    description: 'Send an email message to a recipient.',
    inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
  }).server(async (input, context) => {
    record('send_email', input, context);
    return { sent: true };
  });
  const createInvoice = toolDefinition({
    name: 'create_invoice',
    description: 'Create an invoice for a customer with an amount in euros.',
    inputSchema: z.object({ customer: z.string(), amount: z.number() }),
  }).server(async (input, context) => {
    record('create_invoice', input, context);
    return { invoice: 'INV-1' };
  });
  const calculator = toolDefinition({
    name: 'calculator',
    description: 'Add two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
  }).server(async (input, context) => {
    record('calculator', input, context);
    return input.a + input.b;
  });
  return { runs, catalog: [getWeather, sendEmail, createInvoice], calculator };
}
