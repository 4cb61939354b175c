import { dynamicTool, jsonSchema, type ToolSet, tool } from 'ai';
import { z } from 'zod';

/** A call that reached a tool's own `execute`. */
export interface FixtureExecution {
  name: string;
  input: unknown;
  toolCallId: string;
}

/**
 * A small catalog of AI SDK tools (zod, `jsonSchema()`, `dynamicTool()`), each recording the calls
 * that reached it.
 */
export function fixtureTools(): { tools: ToolSet; executions: FixtureExecution[] } {
  const executions: FixtureExecution[] = [];
  const record = (name: string, input: unknown, toolCallId: string) => executions.push({ name, input, toolCallId });
  const tools: ToolSet = {
    get_weather: tool({
      description: 'Get the current weather (temperature, wind, conditions) for a city.',
      inputSchema: z.object({ city: z.string().describe('City name, e.g. Paris') }),
      execute: async ({ city }, { toolCallId }) => {
        record('get_weather', { city }, toolCallId);
        return { city, temperature: 21, conditions: 'sunny' };
      },
    }),
    get_forecast: tool({
      description: 'Get a multi-day weather forecast for a city.',
      inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(10) }),
      execute: async (input, { toolCallId }) => {
        record('get_forecast', input, toolCallId);
        return { days: input.days };
      },
    }),
    send_email: tool({
      description: 'Send an email message to a recipient.',
      inputSchema: jsonSchema<{ to: string; subject: string; body: string }>({
        type: 'object',
        properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
        required: ['to', 'subject', 'body'],
        additionalProperties: false,
      }),
      execute: async (input, { toolCallId }) => {
        record('send_email', input, toolCallId);
        return { sent: true };
      },
    }),
    convert_currency: dynamicTool({
      description: 'Convert an amount of money from one currency to another at the current exchange rate.',
      inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
      execute: async (input, { toolCallId }) => {
        record('convert_currency', input, toolCallId);
        return { amount: 10.8 };
      },
    }),
    delete_repository: tool({
      description: 'Delete a GitHub repository permanently.',
      inputSchema: z.object({ repo: z.string() }),
      execute: async (input, { toolCallId }) => {
        record('delete_repository', input, toolCallId);
        return { deleted: true };
      },
    }),
    fetch_stock_price: tool({
      description: 'Fetch the latest stock price for a ticker symbol from the exchange.',
      inputSchema: z.object({ ticker: z.string() }),
      execute: async (input, { toolCallId }): Promise<{ price: number }> => {
        record('fetch_stock_price', input, toolCallId);
        throw new Error('exchange API unreachable');
      },
    }),
  };
  return { tools, executions };
}
