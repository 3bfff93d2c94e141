// The MCP TypeScript SDK client side of the gateway comparison: the same client, talking either to the python
// MCP server directly or to it through meta-gateway.
// usage: node gateway-bench.mjs <warm|inflight|cold|connect> '<json: {"command", "args", "tool", "pin"}>' <count> [concurrency]
//        node gateway-bench.mjs <warm|inflight> '<json: {"url", "transport": "http"|"sse", "tool"}>' <count> [concurrency]
//   (a spec with a url talks to a running server over Streamable HTTP or the legacy HTTP+SSE transport)
//   warm      sequential tools/call after a warm-up, µs per call
//   inflight  <concurrency> calls in flight until <count> are done, calls/s and lost calls
//   cold      per run (after one untimed run): spawn + initialize + the first tools/call, ms
//   connect   per run (after one untimed run): spawn + the client's connect (initialize, or server/discover), ms
//   lazy      one session with a gateway serving pods spec.tools[0..n]: spec.tools[0] warms the gateway up, then
//             each other tool's first call (which spawns its lazy pod) is timed, ms
// Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { expect, main, perRun, sessionModes, warmUp } from './timing.mjs';

const [mode, specArg, countArg, concurrencyArg] = process.argv.slice(2);
const spec = JSON.parse(specArg);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

// spec.pin: the TypeScript SDK v2 client (@modelcontextprotocol/client) pinned to that protocol version
// ('2026-07-28': the modern era, server/discover and no session; '2025-11-25': mode 'legacy', initialize)
// instead of the SDK 1.x client.
async function connectV2() {
  const { Client: ClientV2 } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport: StdioV2 } = await import('@modelcontextprotocol/client/stdio');
  const client = new ClientV2({ name: 'bench', version: '2.0.0' }, { capabilities: {},
    versionNegotiation: { mode: spec.pin === '2026-07-28' ? { pin: spec.pin } : 'legacy' } });
  await client.connect(new StdioV2({ command: spec.command, args: spec.args, stderr: 'ignore' }));
  return client;
}

async function connect() {
  if (spec.pin) return connectV2();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  let transport;
  if (spec.url && spec.transport === 'sse') transport = new SSEClientTransport(new URL(spec.url));
  else if (spec.url) transport = new StreamableHTTPClientTransport(new URL(spec.url));
  else transport = new StdioClientTransport({ command: spec.command, args: spec.args, stderr: 'ignore' });
  await client.connect(transport);
  return client;
}

// Ends the session: over Streamable HTTP a DELETE first (client.close() alone leaves it to the server's expiry).
async function close(client) {
  if (!spec.pin && client.transport instanceof StreamableHTTPClientTransport) await client.transport.terminateSession();
  await client.close();
}

async function echo(client, text, tool = spec.tool) {
  const result = await client.callTool({ name: tool, arguments: { text } });
  return expect(text, result.content[0].text);
}

await main(mode, {
  ...sessionModes({ count, concurrency, connect, call: echo, close }),
  async connect() {
    const connectMs = await perRun(count, async () => {
      const client = await connect();
      return () => close(client);
    }, 1);
    return { runs: count, connectMs };
  },
  async cold() {
    const wholeMs = await perRun(count, async () => {
      const client = await connect();
      await echo(client, 'cold');
      return () => close(client);
    }, 1);
    return { runs: count, wholeMs };
  },
  async lazy() {
    const client = await connect();
    const tools = spec.tools;
    await warmUp(2000, (text) => echo(client, text, tools[0]));
    const firstCallMs = await perRun(tools.length - 1, (i) => echo(client, 'cold', tools[i + 1]));
    await close(client);
    return { pods: tools.length - 1, firstCallMs };
  },
});
