import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOutcome } from './format-trace.js';
import { FRAMEWORKS } from './request-trace.js';
import { type DemoResult, runDemo, SERVER_REQUESTS } from './run-demo.js';

/** The processes started by this one (and by those), still running. */
function descendants(): string[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null);
  const found: string[] = [];
  const parents = new Set([String(process.pid)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [, pid, ppid, args] of table) {
      if (parents.has(ppid!) && !parents.has(pid!) && !args!.startsWith('ps ')) {
        parents.add(pid!);
        found.push(`${pid} ${args}`);
        grew = true;
      }
    }
  }
  return found;
}

describe('the demo over the real MCP servers, with the fake models', () => {
  const lines: string[] = [];
  let result: DemoResult;

  beforeAll(async () => {
    result = await runDemo({ offline: true, env: {}, write: (line) => lines.push(line) });
  }, 180_000);

  it('imports well over a hundred real tools from the servers', () => {
    expect(result.catalogTools).toBeGreaterThan(120);
    expect(lines.join('\n')).toMatch(/8 MCP servers from the npm registry/);
    expect(lines.join('\n')).not.toContain('not started');
  });

  it('runs every request in every framework: search → load the top hit → a successful call', () => {
    expect(result.model.kind).toBe('fake');
    expect(result.traces).toHaveLength(FRAMEWORKS.length * SERVER_REQUESTS.length);
    for (const trace of result.traces) {
      const context = `${trace.framework}: ${trace.request}`;
      expect(trace.error, context).toBeUndefined();
      const [search, load, call, answer] = trace.steps;
      expect(search?.calls[0]?.toolName, context).toBe('search_tools');
      expect(search?.calls[0]?.input, context).toEqual({ query: trace.request });
      // The tool loaded is the search's top hit, and the tool called is the one loaded.
      const hits = search?.calls[0]?.result?.output;
      expect(load?.calls[0]?.toolName, context).toBe('load_tool');
      const top = JSON.stringify(hits).match(/"name":"([^"]+)"/)?.[1];
      expect(load?.calls[0]?.input, context).toEqual({ toolName: top });
      expect(call?.offered, context).toContain(top);
      expect(call?.calls[0]?.toolName, context).toBe(top);
      expect(call?.calls[0]?.result?.ok, context).toBe(true);
      expect(answer?.answer, context).toMatch(new RegExp(`^${top} answered: `));
      expect(requestOutcome(trace), context).toEqual({ searched: true, loaded: top, called: top, callSucceeded: true });
      // Before loading, only the meta-tools (and, in the MCP session, tools loaded by earlier requests).
      expect(search?.offered.slice(0, 2), context).toEqual(['search_tools', 'load_tool']);
    }
  });

  it('reaches the real servers: the sum, the echo, the knowledge graph and the files folder', () => {
    const answers = result.traces.map((trace) => trace.steps.at(-1)?.answer ?? '');
    const agents = FRAMEWORKS.length;
    expect(answers.filter((answer) => answer.includes('The sum of 2 and 3 is 5'))).toHaveLength(agents);
    expect(answers.filter((answer) => answer.includes('Echo: hello from toolscout'))).toHaveLength(agents);
    // Every agent has its own memory server (the MCP agent's gateway process, and each in-process
    // agent its own instance), so each creates Alice anew and the server answers with the new entity.
    const memory = result.traces.filter((trace) => trace.request.includes('Alice'));
    expect(memory.map((trace) => trace.steps[2]?.calls[0]?.toolName)).toEqual(
      Array(agents).fill('memory__create_entities'),
    );
    expect(memory.map((trace) => trace.steps[2]?.calls[0]?.input)).toEqual(
      Array(agents).fill({ entities: [{ name: 'Alice', entityType: 'person', observations: ['works at Acme'] }] }),
    );
    for (const trace of memory) expect(trace.steps[3]?.answer, trace.framework).toContain('"name": "Alice"');
    expect(answers.filter((answer) => /notes\.md.*report\.csv.*todo\.txt/.test(answer))).toHaveLength(agents);
  });

  it('reads a resource and fetches a prompt of the servers through the MCP agent’s gateway session', () => {
    expect(lines).toContain('Besides tools, through the same gateway session:');
    expect(lines.find((line) => line.includes('resources/read everything+demo://'))).toMatch(/: ".+"$/);
    expect(lines.find((line) => line.includes('prompts/get everything__'))).toMatch(/: ".+"$/);
  });

  it('tabulates, per framework, tokens per step far below the whole catalog', () => {
    expect(result.tokens.map((row) => row.framework)).toEqual([...FRAMEWORKS]);
    for (const row of result.tokens) {
      expect(row.steps).toBe(16);
      expect(row.catalogTokens).toBeGreaterThan(10_000);
      expect(row.maxTokens).toBeGreaterThan(0);
      expect(row.maxTokens * 20).toBeLessThan(row.catalogTokens);
      expect(row.meanTokens).toBeLessThanOrEqual(row.maxTokens);
    }
    const table = lines.slice(lines.findIndex((line) => line.startsWith('Tokens of tool definitions')));
    for (const label of ['MCP', 'AI SDK', 'Mastra', 'LangChain', 'TanStack AI']) {
      expect(table.some((line) => line.trimStart().startsWith(label))).toBe(true);
    }
  });

  it('shows the AI SDK agent step by step and sums up the others in a line and a table row each', () => {
    const sections = lines.filter((line) => line.startsWith('── ')).map((line) => line.split(' ')[1]);
    expect(sections).toEqual(['MCP', 'AI', 'Mastra', 'LangChain', 'TanStack']);
    const steps = lines.filter((line) => /^\s+Request \d: /.test(line));
    expect(steps).toHaveLength(SERVER_REQUESTS.length);
    const aiSdk = lines.findIndex((line) => line.startsWith('── AI SDK'));
    expect(lines.findIndex((line) => line.startsWith('  Request 1: '))).toBeGreaterThan(aiSdk);
    const summaries = lines.filter((line) =>
      line.includes('of 4 requests: search → load the top hit → call succeeded'),
    );
    expect(summaries).toHaveLength(FRAMEWORKS.length - 1);
    for (const summary of summaries) expect(summary).toMatch(/^ {2}✓ 4 of 4 requests: .*\(everything__get-sum, /);
    expect(lines).toContain(
      "Every step of the AI SDK agent's requests below; the others in a line each (--trace NAME or --trace all for theirs).",
    );
    for (const row of result.tokens) expect(row.succeeded).toBe(4);
    expect(lines.find((line) => line.trimStart().startsWith('framework'))).toMatch(/requests\s+succeeded\s+steps/);
    expect(lines.length).toBeLessThan(125); // 344 lines when every framework was traced
  });

  it('writes plain text without colours, and leaves no process running', () => {
    expect(lines.join('\n')).not.toContain('\u001b[');
    expect(descendants()).toEqual([]);
  });
});

describe('the demo over a catalog file', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolscout-demo-test-'));
    file = join(dir, 'tools.jsonl');
    const tools = [
      {
        id: 'Weather__Get forecast',
        name: 'Get forecast',
        description: 'Weather forecast for a city, for the next days',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string', default: 'Paris' }, days: { type: 'integer', default: '3' } },
          required: ['city', 'days'],
        },
        source: 'Weather',
      },
      {
        id: 'Music__Get lyrics',
        name: 'Get lyrics',
        description: 'Lyrics of a song',
        parameters: { type: 'object', properties: { song: { type: 'string' } }, required: ['song'] },
        source: 'Music',
      },
    ];
    await writeFile(file, `${tools.map((tool) => JSON.stringify(tool)).join('\n')}\n`);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the same flow, with dry-run calls that return the validated arguments', async () => {
    const lines: string[] = [];
    const result = await runDemo({
      catalog: 'tools.jsonl',
      cwd: dir,
      requests: ['Weather forecast for "Oslo" for 5 days', 'Get the lyrics of "Yesterday"'],
      trace: 'all',
      offline: true,
      env: {},
      write: (line) => lines.push(line),
    });
    expect(result.catalogTools).toBe(2);
    expect(result.traces).toHaveLength(2 * FRAMEWORKS.length);
    for (const trace of result.traces) {
      expect(requestOutcome(trace).callSucceeded, `${trace.framework}: ${trace.request}`).toBe(true);
      const call = trace.steps[2]?.calls[0];
      expect(JSON.stringify(call?.result?.output)).toContain('dryRun');
    }
    const weather = result.traces.find((trace) => trace.framework === 'ai-sdk' && trace.request.startsWith('Weather'));
    expect(weather?.steps[2]?.calls[0]?.input).toEqual({ city: 'Oslo', days: 5 });
    const text = lines.join('\n');
    expect(text).toContain('every call is a dry run that returns the validated arguments');
    expect(text).toContain('dry run (no executor): arguments valid, {"city":"Oslo","days":5}');
    // --trace all: every framework's requests step by step, no summary lines.
    expect(lines.filter((line) => /^\s+Request \d: /.test(line))).toHaveLength(2 * FRAMEWORKS.length);
    expect(text).not.toContain('the others in a line each');
  });

  it('fails with a clear error for a file that is not a catalog', async () => {
    await writeFile(join(dir, 'bad.json'), '{"hello": 1}');
    await expect(runDemo({ catalog: 'bad.json', cwd: dir, offline: true, env: {} })).rejects.toThrow(
      /bad\.json.*without a "tools" array/,
    );
  });
});

describe('stopping the demo', () => {
  it('stops every server process when aborted mid-run', async () => {
    const controller = new AbortController();
    const run = runDemo({
      offline: true,
      env: {},
      frameworks: ['mcp', 'ai-sdk'],
      signal: controller.signal,
      write: (line) => {
        if (line.startsWith('── MCP')) controller.abort(new Error('stop'));
      },
    });
    await expect(run).rejects.toThrow('stop');
    expect(descendants()).toEqual([]);
  }, 120_000);
});
