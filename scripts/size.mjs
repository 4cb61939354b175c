#!/usr/bin/env node
// The size budget of the design (DESIGN.md): every adapter at most 500 lines of source, no core
// source file over 500 lines. Prints the table; with --check, exits 1 when a budget is broken.
//
//   node scripts/size.mjs [--check]   (DESIGN.md keeps a copy of the table between its size markers)
//
// "Source" is a package's src/**/*.ts without tests (*.test.ts, *.test-d.ts) and test helpers
// (test-utils/; adapters keep theirs outside src/). The budget (issue #14) is 500 raw lines (as `wc -l`
// counts them) per adapter, and --check holds every adapter to it; lines of code (neither blank nor
// only comment, as cloc counts them) are shown for information. A core file's budget counts raw
// lines too. The gateway in front of many MCP servers (@toolscout/mcp-gateway) is shown on rows of its
// own (its program apart from its MCP wiring): see DESIGN.md for why it is over 500. It has a
// ceiling instead, its size when the adapter budget was set aside for it: --check fails when it grows,
// so new behaviour lands in core (`@toolscout/core/sources`) and the gateway can only shrink.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET = 500;
/** The adapters. */
const ADAPTERS = [
  { name: '@toolscout/ai-sdk', dir: 'packages/ai-sdk' },
  { name: '@toolscout/langchain', dir: 'packages/langchain' },
  { name: '@toolscout/mastra', dir: 'packages/mastra' },
  { name: '@toolscout/mcp', dir: 'packages/mcp' },
  { name: '@toolscout/tanstack-ai', dir: 'packages/tanstack-ai' },
];
/**
 * Modules over the adapter budget, shown with a ceiling (`cap`, raw lines) that --check holds them to;
 * `parts` splits a module's files into rows of their own.
 */
const MODULES = [
  {
    name: '@toolscout/mcp-gateway (over the adapter budget: see DESIGN.md)',
    dir: 'packages/mcp-gateway',
    cap: 4150,
    parts: [
      {
        name: 'its program: CLI, stdio and HTTP serving, access, config, child processes',
        files: [
          'bin.ts',
          'main.ts',
          'cli.ts',
          'serve-stdio.ts',
          'serve-http.ts',
          'http-access.ts',
          'json-rpc-lines.ts',
          'stdio-upstream-transport.ts',
          'process-group.ts',
          'upstream-environment.ts',
          'mcp-servers-config.ts',
          'logger.ts',
        ],
      },
    ],
  },
];

function isSource(file) {
  return file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.test-d.ts');
}

/** The source files under `dir` (absolute paths), skipping test helpers. */
function sourceFiles(dir) {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'test-utils') continue;
      files.push(...sourceFiles(path));
    } else if (isSource(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}

/** Raw lines, and lines of code: neither blank nor only comment. */
export function countLines(text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let code = 0;
  let inBlock = false;
  for (const line of lines) {
    let rest = line.trim();
    let hasCode = false;
    while (rest !== '') {
      if (inBlock) {
        const end = rest.indexOf('*/');
        if (end < 0) break;
        inBlock = false;
        rest = rest.slice(end + 2).trim();
      } else if (rest.startsWith('//')) {
        break;
      } else if (rest.startsWith('/*')) {
        inBlock = true;
        rest = rest.slice(2);
      } else {
        hasCode = true;
        break;
      }
    }
    if (hasCode) code++;
  }
  return { raw: lines.length, code };
}

function measure(files) {
  let raw = 0;
  let code = 0;
  for (const file of files) {
    const counts = countLines(readFileSync(file, 'utf8'));
    raw += counts.raw;
    code += counts.code;
  }
  return { files: files.length, raw, code };
}

const check = process.argv.includes('--check');
const rows = [];
const failures = [];
for (const adapter of ADAPTERS) {
  const files = sourceFiles(join(root, adapter.dir, 'src'));
  if (files.length === 0) continue;
  const size = measure(files);
  const ok = size.raw <= BUDGET;
  if (!ok) failures.push(`${adapter.name}: ${size.raw} lines (budget ${BUDGET})`);
  const budget = ok ? `≤ ${BUDGET}` : `**over ${BUDGET}** (${size.raw - BUDGET} to go)`;
  rows.push(`| ${adapter.name} | ${size.files} | ${size.code} | ${size.raw} | ${budget} |`);
}
for (const module of MODULES) {
  const files = sourceFiles(join(root, module.dir, 'src'));
  if (files.length === 0) continue;
  const size = measure(files);
  const ok = size.raw <= module.cap;
  if (!ok) failures.push(`${module.name}: ${size.raw} lines (ceiling ${module.cap}: it may only shrink)`);
  const budget = ok ? `≤ ${module.cap} (a ceiling: may only shrink)` : `**over its ceiling of ${module.cap}**`;
  rows.push(`| ${module.name} | ${size.files} | ${size.code} | ${size.raw} | ${budget} |`);
  for (const part of module.parts ?? []) {
    const inPart = files.filter((file) => part.files.includes(relative(join(root, module.dir, 'src'), file)));
    const partSize = measure(inPart);
    const rest = measure(files.filter((file) => !inPart.includes(file)));
    rows.push(`| … ${part.name} | ${partSize.files} | ${partSize.code} | ${partSize.raw} | |`);
    rows.push(`| … the rest: MCP wiring on core's sources | ${rest.files} | ${rest.code} | ${rest.raw} | |`);
  }
}
const coreFiles = sourceFiles(join(root, 'packages/core/src')).map((file) => ({
  file: relative(join(root, 'packages/core/src'), file),
  ...countLines(readFileSync(file, 'utf8')),
}));
const largest = [...coreFiles].sort((a, b) => b.raw - a.raw);
for (const { file, raw } of largest) {
  if (raw > BUDGET) failures.push(`packages/core/src/${file}: ${raw} lines (budget ${BUDGET})`);
}
const core = measure(coreFiles.map(({ file }) => join(root, 'packages/core/src', file)));

const out = [
  '| module | files | lines of code | lines | budget (lines, CI) |',
  '|---|--:|--:|--:|---|',
  ...rows,
  `| @toolscout/core | ${core.files} | ${core.code} | ${core.raw} | each file ≤ ${BUDGET} lines; largest: ${largest
    .slice(0, 3)
    .map(({ file, raw }) => `${file} ${raw}`)
    .join(', ')} |`,
];
process.stdout.write(`${out.join('\n')}\n`);
if (failures.length > 0) {
  process.stderr.write(`\nOver budget:\n${failures.map((line) => `- ${line}`).join('\n')}\n`);
  if (check) process.exit(1);
}
