// The MCP TypeScript SDK client side of the remote-module comparison: Streamable HTTP to a running server.
// usage: node remote-client.mjs <warm|inflight|connect> <url> <count> [concurrency]
// Prints one JSON line with the measurement. The server's tool `echo` answers "Echo: <message>".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, main, perRun, sessionModes } from './timing.mjs';

const [mode, url, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

async function connect() {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

async function echo(client, message) {
  const result = await client.callTool({ name: 'echo', arguments: { message } });
  expect('Echo: ' + message, result.content[0].text);
}

async function close({ client, transport }) {
  await transport.terminateSession();
  await client.close();
}

await main(mode, {
  ...sessionModes({ count, concurrency, connect, close, call: (c, text) => echo(c.client, text), warmups: 500 }),
  async connect() {
    const msPerRun = await perRun(count, async () => {
      const c = await connect();
      await c.client.listTools();
      await close(c);
    });
    return { runs: count, msPerRun };
  },
});
