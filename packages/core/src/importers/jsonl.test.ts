import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../catalog/catalog.js';
import { importError } from '../test-utils/thrown.js';
import { parseQueriesJsonl, parseToolsJsonl } from './jsonl.js';

const toolsText = [
  '{"id": "TheClique__Songkick concert", "name": "Songkick concert", "description": "Concert info", "parameters": {"type": "object", "properties": {"id_conc": {"type": "string"}}, "required": ["id_conc"]}, "tags": ["Data", "TheClique"], "source": "TheClique"}',
  '',
  '   ',
  '{"id": "analyzeEvidence", "name": "analyzeEvidence", "description": "", "parameters": null}',
  '{"id": "Kick.com API | Kick API__Get Channel Clips", "name": "Get Channel Clips", "description": "Clips", "parameters": {"type": "object", "properties": {}}, "rank": 3}',
].join('\r\n');

describe('parseToolsJsonl', () => {
  it('parses tools, skipping blank lines and CRLF endings', () => {
    const tools = parseToolsJsonl(`\uFEFF${toolsText}\n`, { source: 'fallback' });
    expect(tools).toEqual([
      {
        id: 'TheClique__Songkick concert',
        name: 'Songkick concert',
        description: 'Concert info',
        inputSchema: { type: 'object', properties: { id_conc: { type: 'string' } }, required: ['id_conc'] },
        tags: ['Data', 'TheClique'],
        source: 'TheClique',
      },
      { id: 'analyzeEvidence', name: 'analyzeEvidence', description: '', source: 'fallback' },
      {
        id: 'Kick.com API | Kick API__Get Channel Clips',
        name: 'Get Channel Clips',
        description: 'Clips',
        inputSchema: { type: 'object', properties: {} },
        source: 'fallback',
        metadata: { rank: 3 },
      },
    ]);
    const catalog = new ToolCatalog(tools);
    expect(catalog.get('analyzeEvidence')?.jsonSchema).toEqual({ type: 'object', properties: {} });
    expect(catalog.get('Kick.com API | Kick API__Get Channel Clips')?.toolName).toMatch(
      /^Kick_com_API_Kick_API__Get_Channel_Clips_/,
    );
  });

  it('gives an empty list for empty text', () => {
    expect(parseToolsJsonl('')).toEqual([]);
    expect(parseToolsJsonl('\n\n')).toEqual([]);
  });

  it('names the file, line and field of a malformed line', () => {
    const good = '{"id": "a", "name": "a", "description": "", "parameters": null}';
    const cases: [string, string][] = [
      [`${good}\n{"id": "b", "name": "b",`, 'tools.jsonl, line 2: not valid JSON'],
      [`${good}\n\n[1, 2]`, 'tools.jsonl, line 3: expected one tool object per line, got an array'],
      [`${good}\n"just text"`, 'tools.jsonl, line 2: expected one tool object per line, got a string'],
      ['{"name": "b"}', 'tools.jsonl, line 1, field "id": must be a non-empty string, got undefined'],
      ['{"id": 7}', 'tools.jsonl, line 1, field "id": must be a non-empty string, got a number'],
      ['{"id": "b", "description": 5}', 'tools.jsonl, line 1, field "description": must be a string, got a number'],
      ['{"id": "b", "parameters": "none"}', 'tools.jsonl, line 1, field "parameters": must be an object, got a string'],
      [
        '{"id": "b", "parameters": {"type": "array"}}',
        'tools.jsonl, line 1, field "parameters": must be a JSON Schema of type "object", got type "array"',
      ],
      [
        '{"id": "b", "parameters": {"type": "object", "required": "x"}}',
        'tools.jsonl, line 1, field "parameters.required": must be an array of property names (strings)',
      ],
      ['{"id": "b", "tags": "Data"}', 'tools.jsonl, line 1, field "tags": must be an array of strings, got a string'],
      ['{"id": "b", "tags": ["Data", 1]}', 'tools.jsonl, line 1, field "tags[1]": must be a string, got a number'],
      ['{"id": "b", "source": {}}', 'tools.jsonl, line 1, field "source": must be a string, got an object'],
      [`${good}\n\n${good}`, 'tools.jsonl, line 3, field "id": duplicate tool id "a" (first at line 1)'],
    ];
    for (const [text, message] of cases) {
      const error = importError(() => parseToolsJsonl(text, { file: 'tools.jsonl' }));
      expect(error.message.startsWith(message), `${error.message} should start with ${message}`).toBe(true);
      expect(error.location.file).toBe('tools.jsonl');
      expect(error.location.line).toBeGreaterThan(0);
    }
  });

  it('rejects input that is not text', () => {
    expect(importError(() => parseToolsJsonl(undefined as unknown as string)).message).toBe(
      'expected JSON Lines text, got undefined',
    );
  });
});

describe('parseQueriesJsonl', () => {
  it('parses queries with splits and alternatives', () => {
    const text = [
      '{"id": "G1_instruction:588", "query": "Messi career", "relevant": ["TheClique__Transfermarkt search"], "split": "G1_instruction"}',
      '',
      '{"id": "q2", "query": "lyrics", "relevant": ["a", "b"], "alternatives": [["a", "a2"]]}',
    ].join('\n');
    expect(parseQueriesJsonl(text)).toEqual([
      {
        id: 'G1_instruction:588',
        query: 'Messi career',
        relevant: ['TheClique__Transfermarkt search'],
        split: 'G1_instruction',
      },
      { id: 'q2', query: 'lyrics', relevant: ['a', 'b'], alternatives: [['a', 'a2']] },
    ]);
  });

  it('names the file, line and field of a malformed query', () => {
    const cases: [string, string][] = [
      ['{"id": "q", "query": "x", "relevant": ["a"]', 'queries.jsonl, line 1: not valid JSON'],
      [
        '{"query": "x", "relevant": ["a"]}',
        'queries.jsonl, line 1, field "id": must be a non-empty string, got undefined',
      ],
      [
        '{"id": "q", "relevant": ["a"]}',
        'queries.jsonl, line 1, field "query": must be a non-empty string, got undefined',
      ],
      [
        '{"id": "q", "query": " ", "relevant": ["a"]}',
        'queries.jsonl, line 1, field "query": must be a non-empty string, got a blank string (only white space): " "',
      ],
      [
        '{"id": "q", "query": "x"}',
        'queries.jsonl, line 1, field "relevant": must be an array of tool ids, got undefined',
      ],
      [
        '{"id": "q", "query": "x", "relevant": []}',
        'queries.jsonl, line 1, field "relevant": must name at least one relevant tool id',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a", 3]}',
        'queries.jsonl, line 1, field "relevant[1]": must be a non-empty tool id string, got a number',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a", ""]}',
        'queries.jsonl, line 1, field "relevant[1]": must be a non-empty tool id string, got an empty string',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"], "alternatives": [["b", " "]]}',
        'queries.jsonl, line 1, field "alternatives[0][1]": must be a non-empty tool id string, got a blank string (only white space): " "',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"], "split": 1}',
        'queries.jsonl, line 1, field "split": must be a string, got a number',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"], "alternatives": "a"}',
        'queries.jsonl, line 1, field "alternatives": must be an array of tool id groups, got a string',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"], "alternatives": [[]]}',
        'queries.jsonl, line 1, field "alternatives[0]": must be a non-empty array of tool ids, got an empty array',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"], "alternatives": [["a", null]]}',
        'queries.jsonl, line 1, field "alternatives[0][1]": must be a non-empty tool id string, got null',
      ],
      [
        '{"id": "q", "query": "x", "relevant": ["a"]}\n{"id": "q", "query": "y", "relevant": ["b"]}',
        'queries.jsonl, line 2, field "id": duplicate query id "q" (first at line 1)',
      ],
    ];
    for (const [text, message] of cases) {
      const error = importError(() => parseQueriesJsonl(text, { file: 'queries.jsonl' }));
      expect(error.message.startsWith(message), `${error.message} should start with ${message}`).toBe(true);
    }
  });
});

// packages/core/src/importers/ -> the folder that holds the repository, where shared/ sits beside it.
const datasets = new URL('../../../../../shared/datasets/', import.meta.url);
const haveDatasets = existsSync(fileURLToPath(datasets));

describe.skipIf(!haveDatasets)(`the real datasets in ${fileURLToPath(datasets)}`, () => {
  const sets = [
    { name: 'toolbench', tools: 2479, queries: 765 },
    { name: 'sealtools', tools: 4076, queries: 1354 },
  ];
  for (const set of sets) {
    it(`parses ${set.name}: ${set.tools} tools a catalog accepts, and ${set.queries} queries that name them`, () => {
      const file = fileURLToPath(new URL(`${set.name}/tools.jsonl`, datasets));
      const tools = parseToolsJsonl(readFileSync(file, 'utf8'), { file });
      expect(tools).toHaveLength(set.tools);
      const catalog = new ToolCatalog(tools);
      expect(catalog.size).toBe(set.tools);
      expect(new Set(catalog.list().map((tool) => tool.toolName)).size).toBe(set.tools);
      for (const tool of catalog) expect(tool.toolName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const queriesFile = fileURLToPath(new URL(`${set.name}/queries.jsonl`, datasets));
      const queries = parseQueriesJsonl(readFileSync(queriesFile, 'utf8'), { file: queriesFile });
      expect(queries).toHaveLength(set.queries);
      const missing = queries.flatMap((query) => query.relevant.filter((id) => !catalog.has(id)));
      expect(missing).toEqual([]);
    });
  }
});

if (!haveDatasets) {
  const reason = `real dataset test skipped: ${fileURLToPath(datasets)} is absent (shared/ must sit beside the repository)`;
  console.info(reason);
  it.skip(reason, () => {});
}
