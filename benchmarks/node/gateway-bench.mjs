// The MCP TypeScript SDK client side of the gateway comparison: the same client, talking either to the python
// MCP server directly or to it through meta-gateway.
// usage: node gateway-bench.mjs <warm|inflight|cold|connect> '<json: {"command", "args", "tool", "pin"}>' <count> [concurrency]
//        node gateway-bench.mjs <warm|inflight> '<json: {"url", "transport": "http"|"sse", "tool"}>' <count> [concurrency]
//   (a spec with a url talks to a running server over Streamable HTTP or the legacy HTTP+SSE transport)
//   warm      sequential tools/call after a warm-up, µs per call
//   inflight  <concurrency> calls in flight until <count> are done, calls/s and lost calls
//   cold      per run (after one untimed run): spawn + initialize + the first tools/call, ms
//   connect   per run (after one untimed run): spawn + the client's connect (initialize, or server/discover), ms
//   mixed     one session of raw JSON-RPC lines, 2025-11-25 and 2026-07-28 calls alternating in blocks (see below)
//   lazy      one session with a gateway serving pods spec.tools[0..n]: spec.tools[0] warms the gateway up, then
//             each other tool's first call (which spawns its lazy pod) is timed, ms
// Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { expect, main, now, perRun, sessionModes, warmUp } from './timing.mjs';

const [mode, specArg, countArg, concurrencyArg] = process.argv.slice(2);
const spec = JSON.parse(specArg);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

// spec.pin: the TypeScript SDK v2 client (@modelcontextprotocol/client) pinned to that protocol version
// ('2026-07-28': the modern era, server/discover and no session; '2025-11-25': mode 'legacy', initialize)
// instead of the SDK 1.x client; over stdio, or over Streamable HTTP when the spec has a url.
async function connectV2() {
  const { Client: ClientV2, StreamableHTTPClientTransport: HttpV2 } = await import('@modelcontextprotocol/client');
  const client = new ClientV2({ name: 'bench', version: '2.0.0' }, { capabilities: {},
    versionNegotiation: { mode: spec.pin === '2026-07-28' ? { pin: spec.pin } : 'legacy' } });
  if (spec.url) {
    await client.connect(new HttpV2(new URL(spec.url)));
    return client;
  }
  const { StdioClientTransport: StdioV2 } = await import('@modelcontextprotocol/client/stdio');
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
  if (spec.url && spec.transport !== 'sse' && client.transport?.sessionId) await client.transport.terminateSession();
  await client.close();
}

async function echo(client, text, tool = spec.tool) {
  const result = await client.callTool({ name: tool, arguments: { text } });
  return expect(text, result.content[0].text);
}

await main(mode, {
  ...sessionModes({ count, concurrency, connect, call: echo, close }),
  // one session of raw JSON-RPC lines on the gateway's stdio: after initialize, 2025-11-25 calls and 2026-07-28
  // calls (the same tools/call with the 2026 _meta) alternate in blocks of <count> / 20 on the same pipe, each
  // block pair in a rotated order; the medians per era and of the ratios of the block pairs
  async mixed() {
    const { spawn } = await import('node:child_process');
    const child = spawn(spec.command, spec.args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const waiting = new Map();
    let buffer = '';
    let nextId = 0;
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let message;
        try { message = JSON.parse(line); } catch { continue; }
        const settle = waiting.get(message.id);
        if (settle) { waiting.delete(message.id); settle(message); }
      }
    });
    const send = (method, params) => new Promise((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
    const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const callIn = async (era, text) => {
      const params = { name: spec.tool, arguments: { text } };
      if (era === 'modern') params._meta = modernMeta;
      const answer = await send('tools/call', params);
      if (answer.error) throw new Error(JSON.stringify(answer.error));
      return expect(text, answer.result.content[0].text);
    };
    await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    await warmUp(Number(process.env.BENCH_WARMUP_CALLS ?? 2000), (text) => callIn(Number(text.slice(1)) % 2 ? 'modern' : 'legacy', text));
    const blocks = 20;
    const size = Math.max(1, Math.floor(count / blocks));
    const us = { legacy: [], modern: [] };
    const ratios = [];
    for (let b = 0; b < blocks; b++) {
      const block = {};
      for (const era of b % 2 ? ['modern', 'legacy'] : ['legacy', 'modern']) {
        const start = now();
        for (let i = 0; i < size; i++) await callIn(era, 'm' + i);
        block[era] = Number(now() - start) / size / 1000;
        us[era].push(block[era]);
      }
      ratios.push(block.modern / block.legacy);
    }
    child.stdin.end();
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return { calls: size * blocks, legacyUsPerCall: median(us.legacy), modernUsPerCall: median(us.modern), ratio: median(ratios) };
  },
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
