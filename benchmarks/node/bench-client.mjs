// The MCP TypeScript SDK client side of the MCP boundary comparison.
// usage: node bench-client.mjs <warm|inflight|cold> <python> <server.py> <count> [concurrency]
// Prints one JSON line with the measurement.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, main, perRun, sessionModes } from './timing.mjs';

const [mode, python, server, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: python, args: [server], stderr: 'ignore' }));
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
