// A modern pod (MCP 2026-07-28 only) on the TypeScript SDK v2 server, for the gateway's tests of modern pods. It
// writes its pid as a file named by it (holding "<pid> <META_PROCESS_TOKEN>") into $FIXTURE_PID_DIR and appends to
// $FIXTURE_RECORD a line per message it reads ("method <method>"), per request the client capabilities it declares ("capabilities <method> <JSON>") and
// per cancelled call ("cancelled <tool>").
// Tools: echo {text}; ask (input_required: an elicitation, then "answered: <content as JSON>"); whoami (the request's
// _meta and envelope as JSON text); slow {steps, delayMs} (progress per step); log {level, text} (a log line
// at that level, sent when the request asked for it); grow (adds tool "grown": tools/list_changed on the listen
// stream).
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/v4';

const record = (line) => { if (process.env.FIXTURE_RECORD) appendFileSync(process.env.FIXTURE_RECORD, line + '\n'); };
if (process.env.FIXTURE_PID_DIR) writeFileSync(join(process.env.FIXTURE_PID_DIR, String(process.pid)),
    `${process.pid} ${process.env.META_PROCESS_TOKEN ?? ''}\n`);

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); reject(new Error('aborted')); }, { once: true });
});

let grown = false;
const live = [];

function build() {
  const server = new McpServer({ name: 'modern-pod', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, logging: {} } });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('ask', { description: 'Asks the client', inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'q');
    if (ctx.mcpReq.requestState() === 'asked' && answer.kind === 'elicit') {
      return { content: [{ type: 'text', text: 'answered: ' + answer.action + ' ' + JSON.stringify(answer.content ?? {}) }] };
    }
    return inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'Proceed?',
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } } }) }, requestState: 'asked' });
  });
  server.registerTool('whoami', { description: 'The request _meta', inputSchema: z.object({}) }, async (_args, ctx) =>
    ({ content: [{ type: 'text', text: JSON.stringify({ meta: ctx.mcpReq._meta ?? {}, envelope: ctx.mcpReq.envelope ?? {} }) }] }));
  server.registerTool('grow', { description: 'Adds tool grown', inputSchema: z.object({}) }, async () => {
    grown = true;
    for (const s of live) {
      if (!s.grownRegistered) {
        s.grownRegistered = true;
        s.registerTool('grown', { description: 'Grown', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'grown' }] }));
      }
    }
    return { content: [{ type: 'text', text: 'grew' }] };
  });
  if (grown) {
    server.grownRegistered = true;
    server.registerTool('grown', { description: 'Grown', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'grown' }] }));
  }
  live.push(server);
  server.registerTool('log', { description: 'Logs a line', inputSchema: z.object({ level: z.string(), text: z.string() }) },
    async ({ level, text }, ctx) => {
      await ctx.mcpReq.log(level, text);
      return { content: [{ type: 'text', text: 'logged' }] };
    });
  server.registerTool('slow', { description: 'Progress per step',
    inputSchema: z.object({ steps: z.number().int(), delayMs: z.number().int() }) }, async ({ steps, delayMs }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    try {
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs, ctx.mcpReq.signal);
        if (token !== undefined) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
        }
      }
      // a pause before the result: a client that handles notifications a tick later than responses (the
      // TypeScript SDK 1.x) drops a progress that arrives in the same read as the result
      await sleep(delayMs, ctx.mcpReq.signal);
    } catch (e) {
      record('cancelled slow');
      throw e;
    }
    return { content: [{ type: 'text', text: 'done ' + steps }] };
  });
  return server;
}

const transport = new StdioServerTransport();
let handler;
Object.defineProperty(transport, 'onmessage', {
  get: () => handler,
  set: (h) => {
    handler = h === undefined ? h : (message, extra) => {
      record('method ' + (message.method ?? 'answer'));
      if (message.method !== undefined && message.id !== undefined) {
        record('capabilities ' + message.method + ' ' + JSON.stringify(message.params?._meta?.['io.modelcontextprotocol/clientCapabilities'] ?? null));
      }
      return h(message, extra);
    };
  },
  configurable: true,
});
serveStdio(() => build(), { legacy: 'reject', transport });
