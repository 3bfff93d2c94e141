// Installs the pinned test peers with `npm ci`, unless node_modules already matches package-lock.json.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder to install: the first argument, else this script's own folder.
const here = process.argv[2] ? resolve(process.argv[2]) : dirname(fileURLToPath(import.meta.url));
const lock = readFileSync(join(here, 'package-lock.json'));
const digest = createHash('sha256').update(lock).digest('hex');
const stamp = join(here, 'node_modules', '.meta-lock-sha256');

if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest) {
  console.log('test peers up to date');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit', shell: process.platform === 'win32' });
if (run.status !== 0) {
  console.error('npm ci failed with status ' + run.status);
  process.exit(run.status ?? 1);
}
writeFileSync(stamp, digest + '\n');
