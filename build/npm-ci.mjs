// Installs the npm packages pinned by package-lock.json in the working directory with `npm ci`, unless
// node_modules already holds exactly that lock file's install (a copy of the lock is kept in node_modules as a
// stamp). With --install, uses `npm install` (still from the lock) instead: for packages whose per-platform
// optional binaries a registry may not all carry, which `npm ci` refuses. With --tsc, then compiles the
// directory's tsconfig.json with the pinned TypeScript compiler.
// The Maven builds run it in each folder that has npm packages: `node ../build/npm-ci.mjs [--install] [--tsc]`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const here = process.cwd();
const lockFile = join(here, 'package-lock.json');
const stamp = join(here, 'node_modules', '.meta-runtime-installed-lock.json');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: here, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error || result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed in ${here}: ${result.error?.message ?? 'exit code ' + result.status}`);
    process.exit(result.status || 1);
  }
}

const lock = readFileSync(lockFile, 'utf8');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
  const command = process.argv.includes('--install') ? 'install' : 'ci';
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', [command, '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stamp, readFileSync(lockFile, 'utf8'));
}
if (process.argv.includes('--tsc')) {
  run(process.execPath, [join(here, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(here, 'tsconfig.json')]);
}
