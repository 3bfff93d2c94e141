// The MCP TypeScript SDK client side of the MCP boundary comparison.
// usage: node bench-client.mjs <warm|inflight|cold> <python> <server.py> [--modern] <count> [concurrency]
//   --modern  the server is started with --modern and the client is the SDK v2 client (@modelcontextprotocol/client)
//             pinned to 2026-07-28 (server/discover, no initialize); without it the SDK 1.x client (2025-11-25)
// Prints one JSON line with the measurement.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, main, perRun, sessionModes } from './timing.mjs';

const [mode, python, server, ...rest] = process.argv.slice(2);
const modern = rest[0] === '--modern';
const [countArg, concurrencyArg] = modern ? rest.slice(1) : rest;
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

async function connectModern() {
  const { Client: ClientV2 } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport: StdioV2 } = await import('@modelcontextprotocol/client/stdio');
  const client = new ClientV2({ name: 'bench', version: '2.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioV2({ command: python, args: [server, '--modern'], stderr: 'ignore' }));
  return client;
}

async function connect() {
  let client;
  if (modern) {
    client = await connectModern();
  } else {
    client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: python, args: [server], stderr: 'ignore' }));
  }
  await client.listTools();
  return client;
}

async function echo(client, text) {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  return expect(text, result.content[0].text);
}

await main(mode, {
  ...sessionModes({ count, concurrency, connect, call: echo }),
  async cold() {
    const msPerRun = await perRun(count, async () => {
      const client = await connect();
      await echo(client, 'cold');
      await client.close();
    });
    return { runs: count, msPerRun };
  },
});
