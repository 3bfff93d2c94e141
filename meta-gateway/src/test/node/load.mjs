// A bounded load on a gateway over Streamable HTTP: <clients> TypeScript SDK clients, each its own session, each
// with <inflight> calls in flight, <calls> calls in all, every answer checked. Usage:
//   node load.mjs '<json: {"url", "tool", "clients", "inflight", "calls"}>'
// Prints one JSON line: {"calls", "ok", "failed", "mismatched", "errors": [...first 5], "ms"}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const spec = JSON.parse(process.argv[2]);
const clients = await Promise.all(Array.from({ length: spec.clients }, async (_, c) => {
  const client = new Client({ name: 'load-' + c, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(spec.url)));
  return client;
}));

let next = 0;
let ok = 0;
let failed = 0;
let mismatched = 0;
const errors = [];
const started = Date.now();
async function worker(client, c) {
  while (next < spec.calls) {
    const i = next++;
    const text = 'c' + c + '-' + i + ' ✓';
    try {
      const result = await client.callTool({ name: spec.tool, arguments: { text } }, undefined, { timeout: 120000 });
      if (result.content?.[0]?.text === text && !result.isError) ok++;
      else mismatched++;
    } catch (e) {
      failed++;
      if (errors.length < 5) errors.push(String(e.message ?? e));
    }
  }
}
await Promise.all(clients.flatMap((client, c) => Array.from({ length: spec.inflight }, () => worker(client, c))));
const ms = Date.now() - started;
await Promise.all(clients.map((client) => client.close()));
process.stdout.write(JSON.stringify({ calls: spec.calls, ok, failed, mismatched, errors, ms }) + '\n');
