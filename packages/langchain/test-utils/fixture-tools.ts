import { tool } from '@langchain/core/tools';
import { interrupt } from '@langchain/langgraph';
import { z } from 'zod';

/** A tool run as the tool saw it: its parsed input and what its `ToolRuntime` carried. */
export interface FixtureRun {
  tool: string;
  input: unknown;
  toolCallId: string | undefined;
  context: unknown;
}

/**
 * A small catalog of real LangChain tools (`tool()` with zod schemas), recording every run with what
 * LangChain's `ToolRuntime` gave it, plus an agent-own `calculator` tool that is never searched.
 */
export function createFixtureTools() {
  const runs: FixtureRun[] = [];
  /** The full `ToolRuntime` of each run, in the order of `runs`. */
  const runtimes: { state?: unknown; toolCallId?: string }[] = [];
  const record = (
    name: string,
    input: unknown,
    runtime: { toolCallId?: string; context?: unknown; state?: unknown },
  ) => {
    runs.push({ tool: name, input, toolCallId: runtime.toolCallId, context: runtime.context });
    runtimes.push(runtime);
  };
  const getWeather = tool(
    async (input, runtime) => {
      record('get_weather', input, runtime);
      return `Sunny and 21°C in ${input.city}.`;
    },
    {
      name: 'get_weather',
      description: 'Get the current weather (temperature, wind, conditions) for a city.',
      schema: z.object({ city: z.string().describe('City name, e.g. Paris') }),
    },
  );
  const getForecast = tool(
    async (input, runtime) => {
      record('get_forecast', input, runtime);
      return { city: input.city, days: Array.from({ length: input.days }, (_, day) => ({ day, summary: 'mild' })) };
    },
    {
      name: 'get_forecast',
      description: 'Get a multi-day weather forecast for a city.',
      schema: z.object({ city: z.string(), days: z.number().int().min(1).max(10).describe('Number of days, 1 to 10') }),
    },
  );
  const sendEmail = tool(
    async (input, runtime) => {
      record('send_email', input, runtime);
      return `Sent "${input.subject}" to ${input.to}.`;
    },
    {
      name: 'send_email',
      description: 'Send an email message to a recipient.',
      schema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    },
  );
  const translateText = tool(
    async (input, runtime) => {
      record('translate_text', input, runtime);
      return `[${input.language}] ${input.text}`;
    },
    {
      name: 'translate_text',
      description: 'Translate text into another language.',
      schema: z.object({ text: z.string(), language: z.string() }),
    },
  );
  const exportReport = tool(
    async (input, runtime) => {
      record('export_report', input, runtime);
      throw new Error('the report service is down');
    },
    {
      name: 'export_report',
      description: 'Export a sales report as a PDF file.',
      schema: z.object({ quarter: z.string() }),
    },
  );
  const deleteRepository = tool(
    async (input, runtime) => {
      const decision = interrupt({ action: 'delete_repository', repo: input.repo });
      record('delete_repository', { ...input, decision }, runtime);
      return decision === 'approve' ? `Deleted ${input.repo}.` : `Kept ${input.repo}.`;
    },
    {
      name: 'delete_repository',
      description: 'Delete a GitHub repository permanently (asks a human first).',
      schema: z.object({ repo: z.string() }),
    },
  );
  const calculator = tool(
    async (input) => {
      runs.push({ tool: 'calculator', input, toolCallId: undefined, context: undefined });
      return String(input.a + input.b);
    },
    {
      name: 'calculator',
      description: 'Add two numbers.',
      schema: z.object({ a: z.number(), b: z.number() }),
    },
  );
  return {
    runs,
    runtimes,
    catalog: [getWeather, getForecast, sendEmail, translateText, exportReport, deleteRepository],
    getWeather,
    calculator,
  };
}
