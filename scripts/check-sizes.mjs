// `npm run check:sizes` (part of `npm run check`): no source file the repository tracks is longer than
// 400 lines, tests included; a longer one is split by what its parts do. Function length is biome's
// (complexity/noExcessiveLinesPerFunction in biome.json). Generated files, drizzle's migrations and
// snapshots and lock files are not written by hand, so they are not counted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const maxLines = 400;
const source = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx|css)$/;
const notWrittenByHand = [/\.gen\.ts$/, /(^|\/)drizzle\//, /(^|\/)package-lock\.json$/];

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => source.test(file) && !notWrittenByHand.some((pattern) => pattern.test(file)));

const tooLong = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue; // tracked but deleted in the work tree
  }
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > maxLines) tooLong.push({ file, lines });
}

if (tooLong.length > 0) {
  tooLong.sort((a, b) => b.lines - a.lines);
  console.error(
    `${tooLong.length} source files are longer than ${maxLines} lines; split each by what its parts do:`,
  );
  for (const { file, lines } of tooLong) console.error(`  ${file}: ${lines} lines`);
  process.exit(1);
}
console.log(`File sizes: ${files.length} source files, none over ${maxLines} lines.`);
