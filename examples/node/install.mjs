// Installs the pinned npm packages of package-lock.json with `npm ci`, unless node_modules already
// holds exactly that lock file's install (a stamp copy of the lock is kept in node_modules).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lock = readFileSync(join(here, 'package-lock.json'), 'utf8');
const stamp = join(here, 'node_modules', '.meta-runtime-installed-lock.json');
const entry = join(here, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

if (existsSync(entry) && existsSync(stamp) && readFileSync(stamp, 'utf8') === lock) {
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'],
  { cwd: here, stdio: 'inherit', shell: process.platform === 'win32' });
if (run.error) {
  console.error(`npm ci could not be started: ${run.error.message}`);
  process.exit(1);
}
if (run.status !== 0) {
  console.error(`npm ci failed with exit code ${run.status}`);
  process.exit(run.status ?? 1);
}
writeFileSync(stamp, lock);
