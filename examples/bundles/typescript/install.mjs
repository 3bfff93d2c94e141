// Installs the pinned npm packages of package-lock.json with `npm ci` (unless node_modules already holds exactly
// that lock file's install), then compiles hello.ts into dist/ with the pinned tsc.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: here, stdio: 'inherit' });
  if (result.error || result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? 'exit code ' + result.status}`);
    process.exit(result.status || 1);
  }
};
const lockFile = join(here, 'package-lock.json');
const stamp = join(here, 'node_modules', '.meta-runtime-installed-lock.json');
if (!existsSync(lockFile)) {
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
} else if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== readFileSync(lockFile, 'utf8')) {
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}
writeFileSync(stamp, readFileSync(lockFile, 'utf8'));
run(process.execPath, [join(here, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(here, 'tsconfig.json')]);
