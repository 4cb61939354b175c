import type { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

/** A tool call that reached the original Mastra tool. */
export interface ToolRun {
  toolId: string;
  input: unknown;
  /** `requestContext.get('tenant')` as the tool saw it. */
  tenant: unknown;
  /** The tool call id Mastra gave the call (`context.agent.toolCallId`). */
  toolCallId: unknown;
}

interface ToolContext {
  requestContext?: RequestContext;
  agent?: { toolCallId?: string };
}

/**
 * A small catalog of `createTool` tools with zod schemas, keyed by name as Mastra's processor takes
 * them; every run is recorded with what the tool saw of Mastra's context.
 */
export function createMastraTools() {
  const runs: ToolRun[] = [];
  const record = (toolId: string, input: unknown, context: ToolContext | undefined) => {
    runs.push({
      toolId,
      input,
      tenant: context?.requestContext?.get('tenant'),
      toolCallId: context?.agent?.toolCallId,
    });
  };
  const tools = {
    getWeather: createTool({
      id: 'get_weather',
      description: 'Get the current weather (temperature, wind, conditions) for a city.',
      inputSchema: z.object({ city: z.string().describe('City name, e.g. Paris') }),
      execute: async (input, context) => {
        record('get_weather', input, context as ToolContext);
        return { city: input.city, temperature: 21 };
      },
    }),
    getForecast: createTool({
      id: 'get_forecast',
      description: 'Get a multi-day weather forecast for a city.',
      inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(10).default(3) }),
      execute: async (input, context) => {
        record('get_forecast', input, context as ToolContext);
        return { city: input.city, days: input.days };
      },
    }),
    sendEmail: createTool({
      id: 'send_email',
      description: 'Send an email message to a recipient.',
      inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      execute: async (input, context) => {
        record('send_email', input, context as ToolContext);
        return { sent: true };
      },
    }),
    deleteRepository: createTool({
      id: 'delete_repository',
      description: 'Delete a GitHub repository permanently.',
      inputSchema: z.object({ repo: z.string().describe('owner/name') }),
      requireApproval: true,
      execute: async (input, context) => {
        record('delete_repository', input, context as ToolContext);
        return { deleted: input.repo };
      },
    }),
    convertCurrency: createTool({
      id: 'convert_currency',
      description: 'Convert an amount of money from one currency to another at the current exchange rate.',
      inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
      execute: async (input, context) => {
        record('convert_currency', input, context as ToolContext);
        return { amount: input.amount * 1.1, currency: input.to };
      },
    }),
    translateText: createTool({
      id: 'translate_text',
      description: 'Translate text into another language.',
      inputSchema: z.object({ text: z.string(), language: z.string() }),
      execute: async (input, context) => {
        record('translate_text', input, context as ToolContext);
        return { translation: `[${input.language}] ${input.text}` };
      },
    }),
  };
  return { tools, runs };
}
