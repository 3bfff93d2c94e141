// A modern MCP server (protocol 2026-07-28) on the TypeScript SDK v2 (@modelcontextprotocol/server), for the
// library's and the gateway's tests. Usage:
//   node modern_server.mjs [--modern-only] [--http PORT_FILE] [--marker FILE] [--requests FILE]
// Over stdio by default (serveStdio: both eras, or modern only with --modern-only); with --http it listens on
// 127.0.0.1 on $PORT, else a free port (createMcpHandler, stateless legacy unless --modern-only) and writes the port to PORT_FILE.
// Tools: echo {text}; slow {steps, delayMs} (progress per step; appends "cancelled <id>" to the marker file when
// cancelled); ask (input_required: an elicitation of a name, then "hello <name>"); whoami (the request's _meta);
// With --requests (stdio), each request read is appended to FILE as a JSON line {method, clientCapabilities}.
// grow (registers tool "grown": tools/list_changed); nag (asks for input again on every round). Prompt "greet" and resource "mem://note" ask likewise.
import { McpServer, inputRequired, acceptedContent, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as z from 'zod/v4';

const args = process.argv.slice(2);
const modernOnly = args.includes('--modern-only');
const httpAt = args.indexOf('--http');
const markerAt = args.indexOf('--marker');
const marker = markerAt >= 0 ? args[markerAt + 1] : null;
const mark = (line) => { if (marker) appendFileSync(marker, line + '\n'); };
const requestsAt = args.indexOf('--requests');
const requestsFile = requestsAt >= 0 ? args[requestsAt + 1] : null;

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); reject(new Error('aborted')); }, { once: true });
});

function askName(ctx, what) {
  const name = acceptedContent(ctx.mcpReq.inputResponses, 'name');
  const state = ctx.mcpReq.requestState();
  if (name && state === 'round-1') {
    return { name: String(name.name) };
  }
  return inputRequired({
    inputRequests: { name: inputRequired.elicit({ message: 'Your name for ' + what + '?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }) },
    requestState: 'round-1',
  });
}

function build() {
  const server = new McpServer({ name: 'modern-test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, logging: {} } });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('slow', { description: 'Reports progress per step',
    inputSchema: z.object({ steps: z.number().int(), delayMs: z.number().int() }) },
    async ({ steps, delayMs }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      try {
        for (let i = 1; i <= steps; i++) {
          await sleep(delayMs, ctx.mcpReq.signal);
          if (token !== undefined) {
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
          }
        }
      } catch (e) {
        mark('cancelled ' + ctx.mcpReq.id);
        throw e;
      }
      return { content: [{ type: 'text', text: 'done ' + steps }], structuredContent: { steps } };
    });
  server.registerTool('ask', { description: 'Asks the client for a name', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = askName(ctx, 'ask');
    return answer.name === undefined ? answer : { content: [{ type: 'text', text: 'hello ' + answer.name }] };
  });
  server.registerTool('nag', { description: 'Asks for input forever', inputSchema: z.object({}) }, async (_args, ctx) => {
    const round = Number(ctx.mcpReq.requestState() ?? 0) + 1;
    mark('nag round ' + round);
    return inputRequired({ inputRequests: { ['name' + round]: inputRequired.elicit({ message: 'Again?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }) }, requestState: String(round) });
  });
  server.registerTool('whoami', { description: 'The request _meta', inputSchema: z.object({}) }, async (_args, ctx) =>
    ({ content: [{ type: 'text', text: JSON.stringify({ ...(ctx.mcpReq._meta ?? {}), ...(ctx.mcpReq.envelope ?? {}) }) }] }));
  server.registerTool('grow', { description: 'Adds a tool', inputSchema: z.object({}) }, async () => {
    if (!grown) {
      grown = true;
      tools.push('grown');
    }
    for (const s of live) {
      s.registerTool('grown', { description: 'Grown', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'grown' }] }));
    }
    return { content: [{ type: 'text', text: 'grew' }] };
  });
  if (grown) {
    server.registerTool('grown', { description: 'Grown', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'grown' }] }));
  }
  server.registerPrompt('greet', { description: 'Greets after asking' }, async (ctx) => {
    const answer = askName(ctx, 'greet');
    return answer.name === undefined ? answer
      : { messages: [{ role: 'user', content: { type: 'text', text: 'greet ' + answer.name } }] };
  });
  server.registerResource('note', 'mem://note', { mimeType: 'text/plain' }, async (uri, ctx) => {
    const answer = askName(ctx, 'note');
    return answer.name === undefined ? answer : { contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'note of ' + answer.name }] };
  });
  live.push(server);
  return server;
}
let grown = false;
const tools = [];
const live = [];

if (httpAt >= 0) {
  const handler = createMcpHandler(() => build(), { legacy: modernOnly ? 'reject' : 'stateless' });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request = new Request('http://127.0.0.1' + req.url, { method: req.method, headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body, signal: controller.signal });
    const response = await handler.fetch(request, {});
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          res.write(value);
        }
      } catch { /* the client went away */ }
    }
    res.end();
  });
  http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => writeFileSync(args[httpAt + 1], String(http.address().port)));
} else {
  const transport = new StdioServerTransport();
  if (requestsFile) {
    let handler;
    Object.defineProperty(transport, 'onmessage', {
      get: () => handler,
      set: (h) => {
        handler = h === undefined ? h : (message, extra) => {
          if (message.method !== undefined && message.id !== undefined) {
            appendFileSync(requestsFile, JSON.stringify({ method: message.method,
              clientCapabilities: message.params?._meta?.['io.modelcontextprotocol/clientCapabilities'] ?? null }) + '\n');
          }
          return h(message, extra);
        };
      },
      configurable: true,
    });
  }
  serveStdio(() => build(), { legacy: modernOnly ? 'reject' : 'serve', transport });
}
