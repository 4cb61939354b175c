import { describe, expect, it } from 'vitest';
import { type CliIO, cliVersion, HELP, parseCliArgs, runCli, UsageError } from './cli.js';

const toolsJsonl = [
  {
    id: 'Musixmatch__Get Lyrics',
    name: 'Get Lyrics',
    description: 'Returns the lyrics of a song by its title and artist.',
    parameters: { type: 'object', properties: { title: { type: 'string' }, artist: { type: 'string' } } },
    tags: ['Music'],
    source: 'Musixmatch',
  },
  {
    id: 'OpenWeather__Current weather',
    name: 'Current weather',
    description: 'Current weather conditions for a city: temperature, wind, humidity.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    tags: ['Weather'],
    source: 'OpenWeather',
  },
  {
    id: 'Currency | FX__convert',
    name: 'convert',
    description: 'Convert an amount of money from one currency to another at the latest exchange rate.',
    parameters: null,
    tags: ['Finance'],
    source: 'Currency FX',
  },
]
  .map((tool) => JSON.stringify(tool))
  .join('\n');

const queriesJsonl = [
  { id: 'q1', query: 'find the lyrics of a song', relevant: ['Musixmatch__Get Lyrics'], split: 'test' },
  { id: 'q2', query: 'what is the weather in Paris', relevant: ['OpenWeather__Current weather'] },
  { id: 'q3', query: 'convert 20 dollars to euros at the exchange rate', relevant: ['Currency | FX__convert'] },
]
  .map((query) => JSON.stringify(query))
  .join('\n');

const mcpCatalog = JSON.stringify({
  tools: [
    { name: 'get_weather', description: 'Weather forecast for a location', inputSchema: { type: 'object' } },
    { name: 'send_email', description: 'Send an email message', inputSchema: { type: 'object' } },
  ],
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], files: Record<string, string | Uint8Array> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const missing = (path: string) =>
    Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
  const io: CliIO = {
    readBytes: async (path) => {
      const data = files[path];
      if (data === undefined) throw missing(path);
      return typeof data === 'string' ? new TextEncoder().encode(data) : data;
    },
    writeFile: async (path, data) => {
      if (path.startsWith('readonly/'))
        throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
      files[path] = data;
    },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readFile: async (path) => {
      if (path === 'dir')
        throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
      const text = files[path];
      if (typeof text !== 'string') {
        throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
      }
      return text;
    },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const files = { 'tools.jsonl': toolsJsonl, 'queries.jsonl': queriesJsonl, 'mcp.json': mcpCatalog };

describe('toolscout search (one query)', () => {
  it('prints a ranked table with rank, score, id and description', async () => {
    const result = await run(['search', 'find the lyrics of a song', '--catalog', 'tools.jsonl'], files);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^rank {2}score {2}id +description$/);
    expect(lines[1]).toMatch(
      /^ {3}1 {2}[01]\.\d{3} {2}Musixmatch__Get Lyrics +Returns the lyrics of a song by its title and artist\.$/,
    );
  });

  it('with --explain, prints under each row why it matched', async () => {
    const result = await run(['search', 'lyrics of a song', '--catalog', 'tools.jsonl', '--explain'], files);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^ {3}1 {2}[01]\.\d{3} {2}Musixmatch__Get Lyrics /);
    expect(lines[2]).toBe('             why: name: lyrics; description: song, "lyrics song"');
    const batch = await run(['search', '--catalog', 'tools.jsonl', '--queries', 'queries.jsonl', '--explain'], files);
    expect(batch.stdout).toContain('why: ');
    const bad = await run(['search', 'x', '--catalog', 'tools.jsonl', '--explain=yes'], files);
    expect(bad).toMatchObject({ code: 2, stderr: 'toolscout: --explain takes no value, got "--explain=yes"\n' });
  });

  it('joins several words into one query and accepts --opt=value', async () => {
    const result = await run(
      ['search', 'lyrics', 'of', 'a', 'song', '--catalog=tools.jsonl', '--limit=1', '--json'],
      files,
    );
    expect(result.code).toBe(0);
    const line = JSON.parse(result.stdout);
    expect(line.query).toBe('lyrics of a song');
    expect(line.hits.map((hit: { id: string }) => hit.id)).toEqual(['Musixmatch__Get Lyrics']);
  });

  it('prints one JSON line with --json, scores in [0, 1], at most --limit hits', async () => {
    const result = await run(
      ['search', 'weather in a city', '--catalog', 'tools.jsonl', '--json', '--limit', '2'],
      files,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const line = JSON.parse(result.stdout) as { query: string; hits: { id: string; score: number }[] };
    expect(line.query).toBe('weather in a city');
    expect(line.hits.length).toBeGreaterThanOrEqual(1);
    expect(line.hits.length).toBeLessThanOrEqual(2);
    expect(line.hits[0]!.id).toBe('OpenWeather__Current weather');
    for (const hit of line.hits) {
      expect(Object.keys(hit)).toEqual(['id', 'score']);
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
  });

  it('drops hits below --min-score', async () => {
    const all = JSON.parse(
      (await run(['search', 'weather', '--catalog', 'tools.jsonl', '--json', '--min-score', '0'], files)).stdout,
    );
    const none = JSON.parse(
      (await run(['search', 'weather', '--catalog', 'tools.jsonl', '--json', '--min-score', '1'], files)).stdout,
    );
    expect(all.hits.length).toBeGreaterThan(0);
    expect(none.hits.filter((hit: { score: number }) => hit.score < 1)).toEqual([]);
  });

  it('says so when nothing matches', async () => {
    const result = await run(['search', 'zzzqqq', '--catalog', 'tools.jsonl'], files);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No tool matched "zzzqqq" (out of 3 tools).\n');
    const one = await run(['search', 'zzzqqq', '--catalog', 'one.jsonl'], {
      'one.jsonl': `${JSON.stringify({ id: 'only', description: 'The only tool.' })}\n`,
    });
    expect(one.stdout).toBe('No tool matched "zzzqqq" (out of 1 tool).\n');
  });

  it('reads an MCP tools/list catalog, detected by content', async () => {
    const result = await run(['search', 'send an email', '--catalog', 'mcp.json', '--json'], files);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).hits[0].id).toBe('send_email');
  });
});

describe('toolscout search --queries (batch)', () => {
  it('prints one {"id", "hits"} JSON line per query and nothing else on stdout', async () => {
    const result = await run(
      ['search', '--catalog', 'tools.jsonl', '--queries', 'queries.jsonl', '--limit', '10', '--json'],
      files,
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const parsed = lines.map((line) => JSON.parse(line) as { id: string; hits: { id: string; score: number }[] });
    expect(parsed.map((line) => line.id)).toEqual(['q1', 'q2', 'q3']);
    for (const line of parsed) {
      expect(Object.keys(line)).toEqual(['id', 'hits']);
      const scores = line.hits.map((hit) => hit.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
    expect(parsed[0]!.hits[0]!.id).toBe('Musixmatch__Get Lyrics');
    expect(parsed[1]!.hits[0]!.id).toBe('OpenWeather__Current weather');
    expect(parsed[2]!.hits[0]!.id).toBe('Currency | FX__convert');
    expect(result.stderr).toMatch(/^toolscout: searched 3 queries over 3 tools in \d+\.\d s\n$/);
  });

  it('prints a table per query without --json', async () => {
    const result = await run(
      ['search', '--catalog', 'tools.jsonl', '--queries', 'queries.jsonl', '--limit', '1'],
      files,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\nq1: find the lyrics of a song\nrank');
    expect(result.stdout).toContain('\nq3: convert 20 dollars to euros at the exchange rate\n');
  });

  it('warns on stderr about relevant ids missing from the catalog', async () => {
    const queries = JSON.stringify({ id: 'q9', query: 'weather', relevant: ['Nope__tool'] });
    const result = await run(['search', '--catalog', 'tools.jsonl', '--queries', 'q.jsonl', '--json'], {
      ...files,
      'q.jsonl': queries,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: 1 relevant tool id(s) in q.jsonl are not in the catalog (first: q9 -> "Nope__tool")',
    );
    expect(JSON.parse(result.stdout).id).toBe('q9');
  });
});

describe('toolscout usage errors (exit 2)', () => {
  const cases: [string, string[], string][] = [
    ['no arguments', [], 'no command given: use "toolscout search"'],
    ['an unknown command', ['find', 'x'], 'unknown command "find": the command is "search"'],
    ['an unknown option', ['search', 'x', '--catalog', 'tools.jsonl', '--top', '3'], 'unknown option "--top"'],
    ['an unknown short option', ['search', 'x', '-k'], 'unknown option "-k"'],
    ['a missing --catalog value', ['search', 'x', '--catalog'], '--catalog needs a value (a file path)'],
    ['an option instead of a value', ['search', 'x', '--catalog', '--json'], '--catalog needs a value (a file path)'],
    ['an empty value', ['search', 'x', '--catalog='], '--catalog needs a value, got an empty string'],
    ['a missing --limit value', ['search', 'x', '--catalog', 'tools.jsonl', '--limit'], '--limit needs a value'],
    [
      'a non-numeric --limit',
      ['search', 'x', '--catalog', 'tools.jsonl', '--limit', 'ten'],
      '--limit must be a positive integer, got "ten"',
    ],
    [
      'a zero --limit',
      ['search', 'x', '--catalog', 'tools.jsonl', '--limit', '0'],
      '--limit must be a positive integer, got "0"',
    ],
    [
      'a negative --limit',
      ['search', 'x', '--catalog', 'tools.jsonl', '--limit', '-3'],
      '--limit must be a positive integer, got "-3"',
    ],
    [
      'a fractional --limit',
      ['search', 'x', '--catalog', 'tools.jsonl', '--limit', '2.5'],
      '--limit must be a positive integer, got "2.5"',
    ],
    [
      'a non-numeric --min-score',
      ['search', 'x', '--catalog', 'tools.jsonl', '--min-score', 'high'],
      '--min-score must be a number from 0 to 1, got "high"',
    ],
    [
      'an out-of-range --min-score',
      ['search', 'x', '--catalog', 'tools.jsonl', '--min-score', '1.5'],
      '--min-score must be a number from 0 to 1, got "1.5"',
    ],
    [
      'an unknown --format',
      ['search', 'x', '--catalog', 'tools.jsonl', '--format', 'yaml'],
      '--format must be one of jsonl, mcp, openai, anthropic, got "yaml"',
    ],
    ['a value for a flag', ['search', 'x', '--catalog', 'tools.jsonl', '--json=yes'], '--json takes no value'],
    ['an option given twice', ['search', 'x', '--catalog', 'a', '--catalog', 'b'], '--catalog is given twice'],
    ['no --catalog', ['search', 'lyrics'], '--catalog <file> is required'],
    ['no query and no --queries', ['search', '--catalog', 'tools.jsonl'], 'no query: give one as an argument'],
    [
      'both a query and --queries',
      ['search', 'x', '--catalog', 'tools.jsonl', '--queries', 'queries.jsonl'],
      'give either a query or --queries, not both',
    ],
    ['an empty query', ['search', '  ', '--catalog', 'tools.jsonl'], 'the query is empty'],
    [
      'an unknown --embedder',
      ['search', 'x', '--catalog', 'tools.jsonl', '--embedder', 'openai'],
      '--embedder must be one of use, got "openai"',
    ],
    [
      'a missing --index value',
      ['search', 'x', '--catalog', 'tools.jsonl', '--index'],
      '--index needs a value (a file path)',
    ],
    [
      'a missing --save-index value',
      ['search', 'x', '--catalog', 'tools.jsonl', '--save-index', '--json'],
      '--save-index needs a value (a file path)',
    ],
  ];
  for (const [label, argv, message] of cases) {
    it(`rejects ${label}`, async () => {
      const result = await run(argv, files);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith(`toolscout: ${message}`), result.stderr).toBe(true);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('treats everything after -- as the query', async () => {
    const parsed = parseCliArgs(['search', '--catalog', 'tools.jsonl', '--', '--weird query']);
    expect(parsed).toMatchObject({ command: 'search', query: '--weird query' });
  });

  it('throws UsageError from parseCliArgs', () => {
    expect(() => parseCliArgs(['search'])).toThrow(UsageError);
  });
});

describe('toolscout input errors (exit 1)', () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    [
      'a missing catalog file',
      ['search', 'x', '--catalog', 'missing.jsonl'],
      {},
      'cannot read the catalog file "missing.jsonl": no such file',
    ],
    [
      'a directory as catalog',
      ['search', 'x', '--catalog', 'dir'],
      {},
      'cannot read the catalog file "dir": it is a directory',
    ],
    [
      'a missing queries file',
      ['search', '--catalog', 'tools.jsonl', '--queries', 'nope.jsonl'],
      files,
      'cannot read the queries file "nope.jsonl": no such file',
    ],
    [
      'a malformed catalog line',
      ['search', 'x', '--catalog', 'bad.jsonl'],
      { 'bad.jsonl': `${toolsJsonl}\n{"id": "broken", "tags": "Music"}` },
      'bad.jsonl, line 4, field "tags": must be an array of strings, got a string',
    ],
    [
      'a catalog line that is not JSON',
      ['search', 'x', '--catalog', 'bad.jsonl'],
      { 'bad.jsonl': `${toolsJsonl}\n{"id": ` },
      'bad.jsonl, line 4: not valid JSON',
    ],
    [
      'a duplicate tool id',
      ['search', 'x', '--catalog', 'dup.jsonl'],
      { 'dup.jsonl': `${toolsJsonl}\n${toolsJsonl.split('\n')[0]}` },
      'dup.jsonl, line 4, field "id": duplicate tool id "Musixmatch__Get Lyrics" (first at line 1)',
    ],
    [
      'an empty catalog file',
      ['search', 'x', '--catalog', 'empty.json'],
      { 'empty.json': '\n' },
      'empty.json: is empty',
    ],
    [
      'a catalog that is not a catalog',
      ['search', 'x', '--catalog', 'c.yaml'],
      { 'c.yaml': 'tools:\n  - name: x' },
      'c.yaml: is not valid JSON or JSON Lines',
    ],
    [
      'a malformed queries line',
      ['search', '--catalog', 'tools.jsonl', '--queries', 'q.jsonl'],
      { ...files, 'q.jsonl': `${queriesJsonl}\n\n{"id": "q4", "query": "x", "relevant": []}` },
      'q.jsonl, line 5, field "relevant": must name at least one relevant tool id',
    ],
    [
      'a forced format that does not fit',
      ['search', 'x', '--catalog', 'tools.jsonl', '--format', 'mcp'],
      files,
      'tools.jsonl: is JSON Lines, not a JSON document: it cannot be read as mcp',
    ],
  ];
  for (const [label, argv, input, message] of cases) {
    it(`reports ${label}`, async () => {
      const result = await run(argv, input);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith(`toolscout: ${message}`), result.stderr).toBe(true);
    });
  }
});

describe('toolscout search --save-index and --index (saved indexes)', () => {
  for (const path of ['tools.idx', 'tools.json']) {
    it(`saves the index to ${path} and ranks the same from it`, async () => {
      const own: Record<string, string | Uint8Array> = { ...files };
      const argv = ['search', 'weather in a city', '--catalog', 'tools.jsonl', '--json'];
      const built = await run([...argv, '--save-index', path], own);
      expect(built.code, built.stderr).toBe(0);
      expect(own[path] instanceof Uint8Array).toBe(path.endsWith('.idx'));
      const loaded = await run([...argv, '--index', path], own);
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(loaded.stdout).toBe(built.stdout);
      expect(JSON.parse(loaded.stdout).hits[0].id).toBe('OpenWeather__Current weather');
    });
  }

  it('exits 1 naming the file for a missing, malformed or mismatched saved index, and an unwritable path', async () => {
    const own: Record<string, string | Uint8Array> = { ...files, 'bad.idx': 'not an index' };
    await run(['search', 'x', '--catalog', 'mcp.json', '--save-index', 'mcp.idx'], own);
    const cases: [string[], RegExp][] = [
      [['--index', 'none.idx'], /^toolscout: cannot read the saved index file "none.idx": no such file\n$/],
      [['--index', 'bad.idx'], /^toolscout: .*saved tool index/i],
      [['--index', 'mcp.idx'], /^toolscout: .*(catalog|tools)/i],
      [
        ['--save-index', 'readonly/x.idx'],
        /^toolscout: cannot write the index file "readonly\/x.idx": permission denied\n$/,
      ],
    ];
    for (const [extra, message] of cases) {
      const result = await run(['search', 'weather', '--catalog', 'tools.jsonl', ...extra], own);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('toolscout --help and --version', () => {
  it('documents every option', async () => {
    for (const argv of [['--help'], ['-h'], ['search', '--help'], ['help']]) {
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(HELP);
    }
    for (const option of [
      '--catalog',
      '--format',
      '--queries',
      '--limit',
      '--min-score',
      '--embedder',
      '--index',
      '--save-index',
      '--json',
      '--explain',
      '--help',
      '--version',
    ]) {
      expect(HELP).toContain(option);
    }
  });

  it('prints the package version', async () => {
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${cliVersion()}\n`);
    expect(cliVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
