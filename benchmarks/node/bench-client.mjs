// The MCP TypeScript SDK client side of the MCP boundary comparison.
// usage: node bench-client.mjs <warm|inflight|cold> <python> <server.py> <count> [concurrency]
// Prints one JSON line with the measurement.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mode, python, server, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: python, args: [server], stderr: 'ignore' }));
  return client;
}

async function echo(client, text) {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  return result.content[0].text;
}

const now = () => process.hrtime.bigint();

if (mode === 'warm') {
  const client = await connect();
  await client.listTools();
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
  await client.listTools();
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
  let total = 0n;
  for (let i = 0; i < count; i++) {
    const start = now();
    const client = await connect();
    await client.listTools();
    if ((await echo(client, 'cold')) !== 'cold') throw new Error('mismatched answer');
    await client.close();
    total += now() - start;
  }
  console.log(JSON.stringify({ mode, runs: count, msPerRun: Number(total) / count / 1e6 }));
} else {
  console.error('unknown mode ' + mode);
  process.exit(2);
}
