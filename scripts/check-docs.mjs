// Docs that drift fail `npm run check` (issue 40):
// 1. every folder under apps/server/src/features has its row in ARCHITECTURE.md (a table row whose first
//    cell names `apps/server/src/features/<folder>`);
// 2. every file path written in backticks in ARCHITECTURE.md, docs/*.md and docs/decisions/*.md exists:
//    a token with a file extension or a slash, matched against the repository's files and folders by its
//    ending (`features/auth/auth.repo.ts`, `lib/shutdown-watchdog.ts` and `auth.repo.ts` all name one file);
// 3. where a path is followed by a name in backticks (`conversation.service.ts` `receiveInbound`), the file
//    holds that name.
// Placeholders (`<feature>`, `*`, `{…}`), URLs and routes (`/api/…`), commands (anything with a space) and
// files that exist only at run time (below) are not paths to check.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root } from './lib.mjs';

/** Named in the docs, made at run or build time, so never in the repository. */
const RUNTIME_FILES = new Set([
  'dist/.build-hash',
  'apps/server/dist',
  'apps/web/dist',
  'dist/main.js',
  'apps/server/dist/main.js',
  'node_modules/.cache/test-reports',
  'postmaster.pid',
  '.env',
]);
const FILE_EXTENSIONS =
  /\.(ts|tsx|mts|mjs|cjs|js|jsx|json|md|css|html|sql|yaml|yml|toml|conf|sh|txt|webmanifest|svg|png|csv|ics)$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path && existsSync(join(root, path)));
const paths = new Set(files);
for (const file of files) {
  const parts = file.split('/');
  for (let n = 1; n < parts.length; n += 1) paths.add(parts.slice(0, n).join('/'));
}
const names = new Set([...paths].map((path) => basename(path)));
/** Repository paths that end with `token` (a whole path segment at a time). */
const matches = (token) => {
  const clean = token.replace(/\/$/, '').replace(/^\.\//, '');
  if (!clean.includes('/')) return names.has(clean) ? files.filter((f) => basename(f) === clean) : [];
  return [...paths].filter((path) => path === clean || path.endsWith(`/${clean}`));
};

const problems = [];
const docs = [
  'ARCHITECTURE.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(root, 'docs/decisions'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/decisions/${f}`),
];

const looksLikePath = (token) =>
  !/[\s<>*{}$?=|,;()[\]'"@`]/.test(token) &&
  !/^(https?:|\/|~|-|\.\.\/)/.test(token) && // `../x` is an example of a relative import
  !/^[A-Z_]+$/.test(token) &&
  (FILE_EXTENSIONS.test(token) || /^[\w.-]+(\/[\w.-]+)+\/?$/.test(token)) &&
  !/^\d/.test(token);

for (const doc of docs) {
  const text = readFileSync(join(root, doc), 'utf8');
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    // `path` `name`: the name is checked in the file(s) the path names.
    const tokens = [...line.matchAll(/`([^`\n]+)`(\s*`([A-Za-z_$][\w$]*)(?:\(\))?`)?/g)];
    for (const [, token, , name] of tokens) {
      if (!looksLikePath(token) || RUNTIME_FILES.has(token.replace(/\/$/, ''))) continue;
      // package names and imports (`drizzle-orm/pglite`, `@electric-sql/pglite`) are not repository paths
      if (!FILE_EXTENSIONS.test(token) && /^[a-z@][\w.-]*\/[\w.-]+$/.test(token) && !matches(token).length) {
        if (existsSync(join(root, 'node_modules', token.split('/')[0]))) continue;
      }
      const found = matches(token);
      if (found.length === 0) {
        problems.push(`${doc}:${index + 1}: \`${token}\` names no file or folder in the repository`);
        continue;
      }
      if (name && found.length > 0 && FILE_EXTENSIONS.test(token)) {
        const holds = found.some((file) => {
          const full = join(root, file);
          return (
            existsSync(full) &&
            new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(readFileSync(full, 'utf8'))
          );
        });
        if (!holds) problems.push(`${doc}:${index + 1}: \`${token}\` has no \`${name}\``);
      }
    }
  });
}

const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
const rowsNamed = new Set(
  [...architecture.matchAll(/^\|[^|\n]*?`apps\/server\/src\/features\/([\w-]+)`/gm)].map((match) => match[1]),
);
for (const folder of readdirSync(join(root, 'apps/server/src/features'), { withFileTypes: true })) {
  if (folder.isDirectory() && !rowsNamed.has(folder.name))
    problems.push(`ARCHITECTURE.md: no row for \`apps/server/src/features/${folder.name}\``);
}

if (problems.length) {
  console.error(`✘ The docs name ${problems.length} thing(s) the code does not have:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`✔ The docs match the code (${docs.length} documents; every feature folder has its row).`);
