// Installs the pinned npm packages of package-lock.json with `npm ci`, unless node_modules already holds exactly
// that lock file's install (a stamp copy of the lock is kept in node_modules).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lockFile = join(here, 'package-lock.json');
const stamp = join(here, 'node_modules', '.meta-runtime-installed-lock.json');
if (existsSync(lockFile) && existsSync(stamp) && readFileSync(stamp, 'utf8') === readFileSync(lockFile, 'utf8')) {
  process.exit(0);
}
const run = spawnSync('npm', [existsSync(lockFile) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'],
  { cwd: here, stdio: 'inherit' });
if (run.error || run.status !== 0) {
  console.error(`npm failed: ${run.error?.message ?? 'exit code ' + run.status}`);
  process.exit(run.status || 1);
}
writeFileSync(stamp, readFileSync(lockFile, 'utf8'));
