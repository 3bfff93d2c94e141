// A real MCP client session against the gateway, driven by a script of steps: the TypeScript SDK's Client over its
// StdioClientTransport (which spawns the gateway), or over StreamableHTTPClientTransport / SSEClientTransport to a
// running gateway. Usage:
//   node client.mjs '<json: {"command": "...", "args": [...], "steps": [...]}>'
//   node client.mjs '<json: {"transport": "http"|"sse", "url": "http://.../mcp", "headers": {...}, "steps": [...]}>'
//   node client.mjs @script.json
// With "announce": true it prints {"progress": n} lines as progress arrives (a test may kill it mid-call).
// Steps may also change files (the gateway's manifests), signal the gateway it spawned, leave a call in flight, and
// wait for the pods whose pids a fixture pod recorded to end.
// Prints one JSON object: {"gatewayPid", "steps": [{"ok": ...} | {"error": {...}}], "logs", "listChanged", "stderr"}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema,
  LoggingMessageNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { readFileSync } from 'node:fs';

// The script inline, or @file for one too long for a command line.
const scriptArg = process.argv[2];
const script = JSON.parse(scriptArg.startsWith('@') ? readFileSync(scriptArg.slice(1), 'utf8') : scriptArg);
const logs = [];
let listChanged = 0;
let sampled = 0;
const stderrChunks = [];

const client = new Client({ name: 'meta-gateway-test', version: '1.0.0' }, {
  capabilities: script.capabilities ?? { sampling: {}, elicitation: {}, roots: { listChanged: true } },
});
client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
  sampled++;
  const text = request.params.messages.map((m) => m.content?.text ?? '').join(' ');
  return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled: ' + text } };
});
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { answer: 'yes 🎉' } }));
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp', name: 'tmp' }] }));
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged++; });

function makeTransport() {
  const requestInit = { headers: script.headers ?? {} };
  if (script.transport === 'http') return new StreamableHTTPClientTransport(new URL(script.url), { requestInit });
  if (script.transport === 'sse') return new SSEClientTransport(new URL(script.url), { requestInit });
  const stdio = new StdioClientTransport({
    command: script.command, args: script.args, cwd: script.cwd, stderr: 'pipe',
    env: { ...process.env, ...(script.env ?? {}) },
  });
  stdio.stderr?.on('data', (chunk) => stderrChunks.push(chunk.toString('utf8')));
  return stdio;
}
const transport = makeTransport();

function failure(e) {
  return { error: { code: e.code ?? null, message: String(e.message ?? e), data: e.data ?? null, name: e.name ?? null } };
}

async function waitUntil(predicate, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function call(step) {
  const progress = [];
  const controller = new AbortController();
  const options = { signal: controller.signal, timeout: step.timeoutMs ?? 60000 };
  if (step.progress || step.cancelAfterProgress) {
    options.onprogress = (p) => {
      progress.push(p);
      step.onProgress?.(p);
      if (script.announce) process.stdout.write(JSON.stringify({ progress: progress.length }) + '\n');
      if (step.cancelAfterProgress && progress.length >= step.cancelAfterProgress) controller.abort('cancelled by the test');
    };
  }
  if (step.cancelAfterMs) setTimeout(() => controller.abort('cancelled by the test'), step.cancelAfterMs);
  try {
    const result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, CallToolResultSchema, options);
    return { ok: result, progress };
  } catch (e) {
    return { ...failure(e), progress };
  }
}

const background = new Map(); // key -> {promise, progress}

// The pids a fixture pod wrote into `dir`, each with whether it still runs.
async function pids(dir) {
  const { existsSync, readdirSync } = await import('node:fs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((name) => {
    let alive = true;
    try { process.kill(Number(name), 0); } catch { alive = false; }
    return { pid: Number(name), alive };
  });
}

async function run(step) {
  switch (step.op) {
    case 'writeFile': { // the test changes the gateway's manifests mid-session
      const { writeFileSync } = await import('node:fs');
      writeFileSync(step.path, step.text);
      return { ok: step.path };
    }
    case 'appendLine': { // tells the test how far the session got (a line per step reached)
      const { appendFileSync } = await import('node:fs');
      appendFileSync(step.path, step.text + '\n');
      return { ok: step.path };
    }
    case 'removeFile': {
      const { rmSync } = await import('node:fs');
      rmSync(step.path);
      return { ok: step.path };
    }
    case 'signal': process.kill(transport.pid, step.name); return { ok: step.name };
    case 'callInBackground': { // a call left in flight while the next steps run; its progress is counted
      const entry = { progress: 0 };
      entry.promise = call({ ...step, progress: true, onProgress: () => { entry.progress++; } });
      background.set(step.key, entry);
      return { ok: step.key };
    }
    case 'waitProgress': {
      const entry = background.get(step.key);
      await waitUntil(() => entry.progress >= (step.count ?? 1), step.timeoutMs ?? 20000);
      return { ok: entry.progress };
    }
    case 'awaitBackground': return (await background.get(step.key).promise);
    case 'pids': return { ok: await pids(step.dir) };
    case 'waitStderr': { // until the gateway's stderr holds `text`
      await waitUntil(() => stderrChunks.join('').includes(step.text), step.timeoutMs ?? 20000);
      return { ok: step.text };
    }
    case 'waitDead': { // until at least `count` (default: all) of the pods whose pids are in `dir` have ended
      const end = Date.now() + (step.timeoutMs ?? 20000);
      for (;;) {
        const listed = await pids(step.dir);
        const dead = listed.filter((p) => !p.alive).length;
        if (listed.length > 0 && dead >= (step.count ?? listed.length)) return { ok: listed };
        if (Date.now() > end) throw new Error('still alive in ' + step.dir + ': ' + JSON.stringify(listed));
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    case 'info':
      return { ok: { capabilities: client.getServerCapabilities(), serverInfo: client.getServerVersion(),
        instructions: client.getInstructions() } };
    case 'listTools': return { ok: await client.listTools() };
    case 'call': return call(step);
    case 'parallel': {
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: step.count }, (_, i) =>
        call({ ...step.call, arguments: JSON.parse(JSON.stringify(step.call.arguments).replaceAll('$i', String(i))) })));
      let ok = 0; let mismatched = 0; const errors = [];
      results.forEach((r, i) => {
        if (r.ok && !r.ok.isError) {
          ok++;
          if (!JSON.stringify(r.ok).includes(step.expect.replaceAll('$i', String(i)))) mismatched++;
        } else errors.push(r.error ?? r.ok);
      });
      return { ok: { count: step.count, ok, mismatched, errors: errors.slice(0, 5), errorCount: errors.length, ms: Date.now() - started } };
    }
    case 'callUntilOk': {
      const errors = [];
      for (let i = 0; i < step.attempts; i++) {
        const r = await call(step);
        if (r.ok && !r.ok.isError) return { ok: { result: r.ok, attempts: i + 1, errors: errors.slice(0, 20) } };
        errors.push(r.error ?? r.ok);
        await new Promise((res) => setTimeout(res, step.pauseMs));
      }
      return { error: { message: 'no success in ' + step.attempts + ' attempts', data: errors.slice(-5) } };
    }
    case 'readResource': return { ok: await client.readResource({ uri: step.uri }) };
    case 'listResources': return { ok: await client.listResources() };
    case 'listTemplates': return { ok: await client.listResourceTemplates() };
    case 'listPrompts': return { ok: await client.listPrompts() };
    case 'getPrompt': return { ok: await client.getPrompt({ name: step.name, arguments: step.arguments ?? {} }) };
    case 'complete': return { ok: await client.complete({ ref: step.ref, argument: step.argument }) };
    case 'setLevel': return { ok: await client.setLoggingLevel(step.level) };
    case 'ping': return { ok: await client.ping() };
    case 'request': return { ok: await client.request({ method: step.method, params: step.params }, step.schema === 'any'
        ? (await import('zod')).z.any() : CallToolResultSchema) };
    case 'listChangedCount': return { ok: listChanged };
    case 'waitTool': {
      const end = Date.now() + (step.timeoutMs ?? 20000);
      for (let attempts = 1; ; attempts++) {
        const listed = await client.listTools();
        if (listed.tools.some((t) => t.name === step.name)) return { ok: { attempts, listChanged } };
        if (Date.now() > end) throw new Error('tool ' + step.name + ' never listed');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    case 'waitLogs': await waitUntil(() => logs.length >= step.count, step.timeoutMs ?? 20000); return { ok: logs.length };
    case 'waitListChanged': await waitUntil(() => listChanged >= step.count, step.timeoutMs ?? 20000); return { ok: listChanged };
    case 'sleep': await new Promise((r) => setTimeout(r, step.ms)); return { ok: step.ms };
    case 'waitLines': { // until the file has `count` lines starting with `prefix` (what pods recorded)
      const { existsSync, readFileSync } = await import('node:fs');
      const lines = () => (existsSync(step.path) ? readFileSync(step.path, 'utf8').split('\n') : [])
        .filter((l) => l.startsWith(step.prefix));
      await waitUntil(() => lines().length >= step.count, step.timeoutMs ?? 20000);
      return { ok: lines() };
    }
    default: throw new Error('unknown step ' + step.op);
  }
}

const out = { gatewayPid: null, steps: [], logs, listChanged: 0, sampled: 0, stderr: '' };
try {
  await client.connect(transport);
  out.gatewayPid = transport.pid ?? null;
  out.sessionId = transport.sessionId ?? transport._endpoint?.searchParams.get('sessionId') ?? null;
  for (const step of script.steps) {
    try {
      out.steps.push(await run(step));
    } catch (e) {
      out.steps.push(failure(e));
    }
  }
} catch (e) {
  out.connectError = failure(e);
} finally {
  out.listChanged = listChanged;
  out.sampled = sampled;
  await client.close();
  out.stderr = stderrChunks.join('');
  process.stdout.write(JSON.stringify(out) + '\n');
}
