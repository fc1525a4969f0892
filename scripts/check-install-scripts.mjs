// `npm run check:install-scripts`: every dependency install script we run is one we chose. The
// packages whose scripts the product relies on (esbuild's binary check, argon2's native build
// fallback) are allowed in package.json's `allowScripts`; any other package that ships an install
// script fails this check until someone reviews it (`npm install-scripts approve|deny NAME`), so a
// fresh `npm install` prints no "install scripts not yet covered" warning.
import { execFileSync } from 'node:child_process';
import { root } from './lib.mjs';

let listing;
try {
  listing = execFileSync('npm', ['install-scripts', 'ls', '--json'], { cwd: root, encoding: 'utf8' });
} catch (error) {
  console.error(
    `npm ${process.env.npm_config_user_agent ?? ''} cannot list install scripts (npm >= 11.16 needed).`,
  );
  console.error(String(error.stderr ?? error.message));
  process.exit(1);
}
const pending = JSON.parse(listing).allowScripts ?? [];
if (pending.length > 0) {
  console.error('These packages run install scripts nobody has reviewed:');
  for (const entry of pending) console.error(`  ${typeof entry === 'string' ? entry : entry.name}`);
  console.error(
    'Allow or deny each in package.json: npm install-scripts approve|deny NAME --no-allow-scripts-pin',
  );
  process.exit(1);
}
console.log('Install scripts: every package that runs one is reviewed in package.json allowScripts.');
