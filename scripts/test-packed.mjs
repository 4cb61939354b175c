#!/usr/bin/env node
// What a user gets: packs every publishable package (`pnpm pack`, as published), installs the tarballs
// with npm (not the workspace; --strict-peer-deps, so every peer range must resolve) into a fresh project
// in a temporary folder, with the dependencies the examples' own package.json files name, then type-checks every example with its strict tsconfig and
// the TypeScript it names, and runs each file offline (no API key passed on), checking what it prints.
// Also checks that the READMEs' examples are these files (scripts/readme-examples.mjs).
//
//   npm run test:packed                 (through scripts/toolchain.mjs: Node >= 22, pnpm, dependencies)
//   node scripts/test-packed.mjs [--keep]   --keep: leave the temporary project for a look
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanBuild, publishablePackages } from './publishable.mjs';
import { checkReadmeExamples } from './readme-examples.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const examplesDir = join(root, 'examples');
const RUN_TIMEOUT_MS = 120_000;
/** Variables that would make an example call a real model: never passed on, so every run is offline. */
const MODEL_KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'AI_GATEWAY_API_KEY'];

/** What each example must print (offline), beside exiting with 0. */
const EXPECTED = {
  'core/agent-loop.ts': [
    'step 2: offered search_tools, load_tool, get_weather',
    'get_weather({"city":"Paris"}) -> {"city":"Paris"',
  ],
  'ai-sdk/generate-text.ts': ['load_tool({"toolName":"get_weather"})', 'It is sunny in Paris, 18 °C.'],
  'ai-sdk/tool-loop-agent.ts': ['10 EUR is 10.80 USD.', '20 GBP is 21.60 USD.'],
  'mastra/agent.ts': ['create_issue({"title":"The build fails"})', 'Opened issue #42.'],
  'langchain/create-agent.ts': ['Sunny in Paris.', "Sunny in Rome too. [ 'get_weather' ]"],
  'tanstack-ai/chat.ts': ['model call 3: offered search_tools, load_tool, get_weather', 'It is sunny in Paris, 18 °C.'],
  'mcp/server.ts': ['tools: search_tools, load_tool, get_weather', 'get_weather({"city":"Paris"}) -> Sunny in Paris.'],
  'mcp-gateway/client.ts': [
    'tools: search_tools, load_tool, notes__add_note',
    'notes__add_note({"text":"Buy milk"}) -> Saved note 1.',
  ],
};

const started = performance.now();
const log = (message) =>
  process.stderr.write(`[test:packed ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);

/** Runs a command; throws with its output when it fails. Returns its stdout. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const signal = result.signal ? ` (signal ${result.signal})` : '';
    throw new Error(
      `${command} ${args.join(' ')} failed with exit code ${result.status}${signal}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** The examples: each folder of examples/ with its package.json and its .ts files. */
function examples() {
  return readdirSync(examplesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = join(examplesDir, entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const files = readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('-server.ts'));
      return { name: entry.name, manifest, files };
    });
}

/** One package.json for every example: their dependencies, with toolscout's from the tarballs. */
function projectManifest(list, tarballs) {
  const dependencies = {};
  for (const example of list) {
    for (const [name, range] of Object.entries({
      ...example.manifest.dependencies,
      ...example.manifest.devDependencies,
    })) {
      if (tarballs[name] !== undefined) continue;
      if (dependencies[name] !== undefined && dependencies[name] !== range) {
        throw new Error(`The examples ask for ${name} in two ranges: ${dependencies[name]} and ${range}; use one.`);
      }
      dependencies[name] = range;
    }
  }
  for (const [name, file] of Object.entries(tarballs)) dependencies[name] = `file:${file}`;
  return { name: 'toolscout-packed-test', private: true, type: 'module', dependencies };
}

/** Every file under `dir` whose name ends with `suffix`. */
function filesEndingWith(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Checks that the installed packages' source maps (.js.map, .d.ts.map) point at files the package
 * ships, so a debugger and go-to-definition reach the TypeScript source. Returns how many it checked.
 */
function checkSourceMaps(project, names) {
  let count = 0;
  const missing = [];
  for (const name of names) {
    const dir = join(project, 'node_modules', name);
    for (const map of filesEndingWith(join(dir, 'dist'), '.map')) {
      const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(map, 'utf8'));
      for (const source of sources) {
        const path = resolve(dirname(map), sourceRoot, source);
        if (!existsSync(path)) missing.push(`${map.slice(project.length + 1)} -> ${source}`);
      }
      count++;
    }
  }
  if (missing.length > 0)
    throw new Error(`Source maps point at files not in the package:\n${missing.slice(0, 20).join('\n')}`);
  return count;
}

function main() {
  const { problems } = checkReadmeExamples();
  if (problems.length > 0) throw new Error(`README examples:\n${problems.join('\n')}`);

  const packages = publishablePackages();
  log(`building ${packages.length} packages`);
  cleanBuild(packages);

  const work = mkdtempSync(join(tmpdir(), 'toolscout-packed-'));
  const keep = process.argv.includes('--keep');
  try {
    const tarballDir = join(work, 'tarballs');
    mkdirSync(tarballDir);
    const tarballs = {};
    for (const item of packages) {
      const output = run('pnpm', ['pack', '--json', '--pack-destination', tarballDir], { cwd: item.dir });
      tarballs[item.name] = JSON.parse(output).filename;
    }
    log(`packed ${Object.keys(tarballs).length} tarballs; installing them with npm into ${work}`);

    const project = join(work, 'project');
    mkdirSync(project);
    const list = examples();
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(projectManifest(list, tarballs), null, 2)}\n`);
    run('npm', ['install', '--strict-peer-deps', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
    log(`installed; ${checkSourceMaps(project, Object.keys(tarballs))} source maps resolve to shipped sources`);

    const env = { ...process.env };
    for (const key of MODEL_KEYS) delete env[key];
    const tsc = join(project, 'node_modules', '.bin', 'tsc');
    const checked = new Set();
    for (const example of list) {
      const dir = join(project, example.name);
      cpSync(join(examplesDir, example.name), dir, { recursive: true });
      run(tsc, ['-p', 'tsconfig.json'], { cwd: dir });
      log(`${example.name}: type-checked (tsc --strict)`);
      for (const file of example.files) {
        const key = `${example.name}/${file}`;
        const output = run(process.execPath, [file], { cwd: dir, env, timeout: RUN_TIMEOUT_MS });
        const missing = (EXPECTED[key] ?? []).filter((text) => !output.includes(text));
        if (EXPECTED[key] === undefined) throw new Error(`${key}: no expected output in scripts/test-packed.mjs.`);
        if (missing.length > 0)
          throw new Error(`${key} did not print ${JSON.stringify(missing)}; it printed:\n${output}`);
        checked.add(key);
        log(`${key}: ran, printed what it should`);
      }
    }
    const unrun = Object.keys(EXPECTED).filter((key) => !checked.has(key));
    if (unrun.length > 0) throw new Error(`Examples expected but not found: ${unrun.join(', ')}`);
    log(`passed: ${checked.size} example files of ${list.length} examples, from ${packages.length} packed packages`);
  } finally {
    if (keep) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
