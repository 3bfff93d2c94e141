// The MCP TypeScript SDK client side of the gateway comparison: the same client, talking either to the python
// MCP server directly or to it through meta-gateway.
// usage: node gateway-bench.mjs <warm|inflight|cold> '<json: {"command", "args", "tool"}>' <count> [concurrency]
//   warm      sequential tools/call after a warm-up, µs per call
//   inflight  <concurrency> calls in flight until <count> are done, calls/s and lost calls
//   cold      per run: spawn + initialize (not timed), then the first tools/call (timed: for the gateway this
//             includes spawning the lazy pod); plus the whole spawn + initialize + first call, ms
// Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mode, specArg, countArg, concurrencyArg] = process.argv.slice(2);
const spec = JSON.parse(specArg);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);
const now = () => process.hrtime.bigint();

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'ignore' }));
  return client;
}

async function echo(client, text) {
  const result = await client.callTool({ name: spec.tool, arguments: { text } });
  return result.content[0].text;
}

if (mode === 'warm') {
  const client = await connect();
  for (let i = 0; i < Math.min(count, 2000); i++) await echo(client, 'w' + i);
  const start = now();
  for (let i = 0; i < count; i++) {
    if ((await echo(client, 'm' + i)) !== 'm' + i) throw new Error('mismatched answer');
  }
  const ns = Number(now() - start);
  await client.close();
  console.log(JSON.stringify({ mode, calls: count, usPerCall: ns / count / 1000 }));
} else if (mode === 'inflight') {
  const client = await connect();
  for (let i = 0; i < 2000; i++) await echo(client, 'w' + i);
  let next = 0;
  let lost = 0;
  const start = now();
  async function worker() {
    while (next < count) {
      const i = next++;
      try {
        if ((await echo(client, 'c' + i)) !== 'c' + i) lost++;
      } catch (e) {
        lost++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ns = Number(now() - start);
  await client.close();
  console.log(JSON.stringify({ mode, calls: count, lost, callsPerSecond: count / (ns / 1e9) }));
} else if (mode === 'cold') {
  let first = 0n;
  let whole = 0n;
  for (let i = 0; i < count; i++) {
    const start = now();
    const client = await connect();
    const called = now();
    if ((await echo(client, 'cold')) !== 'cold') throw new Error('mismatched answer');
    const end = now();
    first += end - called;
    whole += end - start;
    await client.close();
  }
  console.log(JSON.stringify({ mode, runs: count, firstCallMs: Number(first) / count / 1e6, wholeMs: Number(whole) / count / 1e6 }));
} else {
  console.error('unknown mode ' + mode);
  process.exit(2);
}
