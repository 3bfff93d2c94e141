// The MCP TypeScript SDK client side of the gateway comparison: the same client, talking either to the python
// MCP server directly or to it through meta-gateway.
// usage: node gateway-bench.mjs <warm|inflight|cold> '<json: {"command", "args", "tool"}>' <count> [concurrency]
//        node gateway-bench.mjs <warm|inflight> '<json: {"url", "transport": "http"|"sse", "tool"}>' <count> [concurrency]
//   (a spec with a url talks to a running server over Streamable HTTP or the legacy HTTP+SSE transport)
//   warm      sequential tools/call after a warm-up, µs per call
//   inflight  <concurrency> calls in flight until <count> are done, calls/s and lost calls
//   cold      per run (after one untimed run): spawn + initialize + the first tools/call, ms
//   lazy      one session with a gateway serving pods spec.tools[0..n]: spec.tools[0] warms the gateway up, then
//             each other tool's first call (which spawns its lazy pod) is timed, ms
// Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode, specArg, countArg, concurrencyArg] = process.argv.slice(2);
const spec = JSON.parse(specArg);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);
const now = () => process.hrtime.bigint();

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  let transport;
  if (spec.url && spec.transport === 'sse') transport = new SSEClientTransport(new URL(spec.url));
  else if (spec.url) transport = new StreamableHTTPClientTransport(new URL(spec.url));
  else transport = new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'ignore' });
  await client.connect(transport);
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
  let whole = 0n;
  for (let i = 0; i <= count; i++) {
    const start = now();
    const client = await connect();
    if ((await echo(client, 'cold')) !== 'cold') throw new Error('mismatched answer');
    if (i > 0) whole += now() - start;
    await client.close();
  }
  console.log(JSON.stringify({ mode, runs: count, wholeMs: Number(whole) / count / 1e6 }));
} else if (mode === 'lazy') {
  const client = await connect();
  const tools = spec.tools;
  for (let i = 0; i < 2000; i++) {
    const r = await client.callTool({ name: tools[0], arguments: { text: 'w' + i } });
    if (r.content[0].text !== 'w' + i) throw new Error('mismatched answer');
  }
  let total = 0n;
  for (const tool of tools.slice(1)) {
    const start = now();
    const r = await client.callTool({ name: tool, arguments: { text: 'cold' } });
    total += now() - start;
    if (r.content[0].text !== 'cold') throw new Error('mismatched answer');
  }
  await client.close();
  console.log(JSON.stringify({ mode, pods: tools.length - 1, firstCallMs: Number(total) / (tools.length - 1) / 1e6 }));
} else {
  console.error('unknown mode ' + mode);
  process.exit(2);
}
