#!/usr/bin/env node
// The READMEs' main examples are files of examples/ (type-checked and run from the packed packages by
// `npm run test:packed`), so they cannot drift: a README marks such a block with the file it shows,
//
//   <!-- example: examples/ai-sdk/generate-text.ts -->
//   ```ts
//   ...the file, verbatim...
//   ```
//
// and this script checks that every marked block is its file, byte for byte.
//
//   node scripts/readme-examples.mjs [--write]     --write: copy the files into the READMEs instead
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MARKED_BLOCK = /<!-- example: (\S+) -->\n```(\w*)\n([\s\S]*?)```\n/g;

/** The READMEs that may show examples: the root one and every package's. */
export function readmes() {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return ['README.md', ...packages.map((entry) => join('packages', entry.name, 'README.md'))].filter((path) => {
    try {
      readFileSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Checks (or with `write`, updates) the marked blocks of every README. Returns the problems found, one
 * sentence each, and the example files shown.
 */
export function checkReadmeExamples({ write = false } = {}) {
  const problems = [];
  const shown = [];
  for (const readme of readmes()) {
    const path = join(root, readme);
    const text = readFileSync(path, 'utf8');
    const updated = text.replace(MARKED_BLOCK, (block, file, language, code) => {
      shown.push(file);
      let content;
      try {
        content = readFileSync(join(root, file), 'utf8');
      } catch {
        problems.push(`${readme} shows ${file}, which does not exist.`);
        return block;
      }
      if (code === content) return block;
      if (!write)
        problems.push(
          `${readme}: the block marked ${file} differs from the file (run node scripts/readme-examples.mjs --write).`,
        );
      return `<!-- example: ${file} -->\n\`\`\`${language}\n${content}\`\`\`\n`;
    });
    if (write && updated !== text) writeFileSync(path, updated);
  }
  return { problems, shown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, shown } = checkReadmeExamples({ write: process.argv.includes('--write') });
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.stderr.write(
    `README examples: ${shown.length} block(s) shown from examples/, ${problems.length} problem(s)\n`,
  );
  process.exitCode = problems.length === 0 ? 0 : 1;
}
