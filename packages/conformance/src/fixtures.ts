import type { ToolDescriptor } from '@toolscout/core';

/** A tool execution that actually ran. */
export interface Execution {
  toolId: string;
  input: unknown;
}

interface FixtureTool {
  id: string;
  description: string;
  properties: Record<string, { type: string; description: string; enum?: string[] }>;
  required: string[];
  tags?: string[];
  pinned?: boolean;
}

const FIXTURE_TOOLS: FixtureTool[] = [
  {
    id: 'get_weather',
    description: 'Get the current weather (temperature, wind, conditions) for a city.',
    properties: { city: { type: 'string', description: 'City name, e.g. Paris' } },
    required: ['city'],
    tags: ['weather'],
  },
  {
    id: 'get_forecast',
    description: 'Get a multi-day weather forecast for a city.',
    properties: {
      city: { type: 'string', description: 'City name' },
      days: { type: 'integer', description: 'Number of days, 1 to 10' },
    },
    required: ['city', 'days'],
    tags: ['weather'],
  },
  {
    id: 'send_email',
    description: 'Send an email message to a recipient.',
    properties: {
      to: { type: 'string', description: 'Recipient address' },
      subject: { type: 'string', description: 'Subject line' },
      body: { type: 'string', description: 'Message body' },
    },
    required: ['to', 'subject', 'body'],
    tags: ['email'],
  },
  {
    id: 'createIssue',
    description: 'Create an issue in a GitHub repository.',
    properties: {
      repo: { type: 'string', description: 'owner/name' },
      title: { type: 'string', description: 'Issue title' },
    },
    required: ['repo', 'title'],
    tags: ['github'],
  },
  {
    id: 'list_issues',
    description: 'List the open issues of a GitHub repository.',
    properties: { repo: { type: 'string', description: 'owner/name' } },
    required: ['repo'],
    tags: ['github'],
  },
  {
    id: 'delete_repository',
    description: 'Delete a GitHub repository permanently.',
    properties: { repo: { type: 'string', description: 'owner/name' } },
    required: ['repo'],
    tags: ['github', 'admin'],
  },
  {
    id: 'convert_currency',
    description: 'Convert an amount of money from one currency to another at the current exchange rate.',
    properties: {
      amount: { type: 'number', description: 'Amount to convert' },
      from: { type: 'string', description: 'ISO code of the source currency' },
      to: { type: 'string', description: 'ISO code of the target currency' },
    },
    required: ['amount', 'from', 'to'],
    tags: ['finance'],
  },
  {
    id: 'translate_text',
    description: 'Translate text into another language.',
    properties: {
      text: { type: 'string', description: 'Text to translate' },
      language: { type: 'string', description: 'Target language' },
    },
    required: ['text', 'language'],
    tags: ['language'],
  },
  {
    id: 'get_time',
    description: 'Get the current date and time in a time zone.',
    properties: { timezone: { type: 'string', description: 'IANA time zone, e.g. Europe/Paris' } },
    required: ['timezone'],
    pinned: true,
  },
];

/** A tool the host gives directly (`AgentSetup.directTools`): always offered, never searched. */
const DIRECT_TOOLS: FixtureTool[] = [
  {
    id: 'save_note',
    description: 'Save a short note for the user, to remember later.',
    properties: { note: { type: 'string', description: 'The text of the note' } },
    required: ['note'],
  },
];

/** A fixture tool as a descriptor whose `execute` records its runs in `executions`. */
function toDescriptor(tool: FixtureTool, executions: Execution[]): ToolDescriptor {
  return {
    id: tool.id,
    description: tool.description,
    tags: tool.tags,
    pinned: tool.pinned,
    inputSchema: {
      type: 'object',
      properties: tool.properties,
      required: tool.required,
      additionalProperties: false,
    },
    execute: async (input) => {
      executions.push({ toolId: tool.id, input });
      return { tool: tool.id, ok: true, input };
    },
  };
}

/** The tools of a scenario: the searchable catalog, the host's direct tools, and what ran. */
export interface Fixture {
  tools: ToolDescriptor[];
  /** `save_note`, for scenarios that give direct tools; its runs are recorded in `executions` too. */
  direct: ToolDescriptor[];
  executions: Execution[];
}

/**
 * The catalog every scenario uses, with executions recorded. Tools return a small JSON result that
 * names the tool and echoes the input, so a transcript shows what ran.
 */
export function createFixtureCatalog(options: { pinned?: boolean } = {}): Fixture {
  const executions: Execution[] = [];
  const tools = FIXTURE_TOOLS.filter((tool) => options.pinned !== false || !tool.pinned).map((tool) =>
    toDescriptor(tool, executions),
  );
  return { tools, direct: DIRECT_TOOLS.map((tool) => toDescriptor(tool, executions)), executions };
}
