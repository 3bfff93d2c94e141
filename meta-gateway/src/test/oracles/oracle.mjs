// Answers with npm's own implementations, one line out per line in, for the Java tests to compare with:
//   node oracle.mjs canonicalize FILE   each line a JSON text -> its canonicalize() form, or "ERROR <message>"
//   node oracle.mjs satisfies FILE      each line a JSON [version, range] -> "true" or "false" (semver.satisfies)
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import semver from 'semver';

const [mode, file] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
const out = [];
for (const line of lines) {
  if (mode === 'canonicalize') {
    try {
      out.push(canonicalize(JSON.parse(line)));
    } catch (e) {
      out.push('ERROR ' + e.message);
    }
  } else if (mode === 'satisfies') {
    const [version, range] = JSON.parse(line);
    out.push(String(semver.satisfies(version, range)));
  } else {
    throw new Error('unknown mode ' + mode);
  }
}
process.stdout.write(out.join('\n') + '\n');
