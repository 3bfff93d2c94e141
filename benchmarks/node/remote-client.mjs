// The MCP TypeScript SDK client side of the remote-module comparison: Streamable HTTP to a running server.
// usage: node remote-client.mjs <warm|inflight|connect> <url> <count> [concurrency]
// Prints one JSON line with the measurement. The server's tool `echo` answers "Echo: <message>".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, url, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);
const now = () => process.hrtime.bigint();

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

async function echo(client, message) {
  const result = await client.callTool({ name: 'echo', arguments: { message } });
  if (result.content[0].text !== 'Echo: ' + message) throw new Error('mismatched answer');
}

async function close({ client, transport }) {
  await transport.terminateSession();
  await client.close();
}

if (mode === 'warm') {
  const c = await connect();
  for (let i = 0; i < Math.min(count, 500); i++) await echo(c.client, 'w' + i);
  const start = now();
  for (let i = 0; i < count; i++) await echo(c.client, 'm' + i);
  const ns = Number(now() - start);
  await close(c);
  console.log(JSON.stringify({ mode, calls: count, usPerCall: ns / count / 1000 }));
} else if (mode === 'inflight') {
  const c = await connect();
  for (let i = 0; i < 500; i++) await echo(c.client, 'w' + i);
  let next = 0;
  let lost = 0;
  const start = now();
  async function worker() {
    while (next < count) {
      const i = next++;
      try { await echo(c.client, 'c' + i); } catch (e) { lost++; }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ns = Number(now() - start);
  await close(c);
  console.log(JSON.stringify({ mode, calls: count, lost, callsPerSecond: count / (ns / 1e9) }));
} else if (mode === 'connect') {
  let total = 0n;
  for (let i = 0; i < count; i++) {
    const start = now();
    const c = await connect();
    await c.client.listTools();
    await close(c);
    total += now() - start;
  }
  console.log(JSON.stringify({ mode, runs: count, msPerRun: Number(total) / count / 1e6 }));
} else {
  console.error('unknown mode ' + mode);
  process.exit(2);
}
