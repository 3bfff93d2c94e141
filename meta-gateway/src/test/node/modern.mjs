// A real client of MCP 2026-07-28 against the gateway: the TypeScript SDK v2 Client pinned to 2026-07-28
// (versionNegotiation {pin}), over its StdioClientTransport (which spawns the gateway) or its
// StreamableHTTPClientTransport to a running gateway, driven by a script of steps. Usage:
//   node modern.mjs @script.json   ({"command", "args", "cwd"} or {"transport": "http", "url", "headers"}, "steps": [...])
// Prints one JSON object: {"gatewayPid", "era", "version", "discover", "steps": [{"ok"} | {"error"}], "logs", "inputs",
// "stderr"}. With "answers": {"<method>": result} (elicitation/create, sampling/createMessage, roots/list) the client
// registers a handler per method that records each input request it fulfils in "inputs" and answers that result.
// Step "callRaw" gets an input_required answer as it is and can retry it by hand ("retryOf", "inputResponses").
import { Client, StreamableHTTPClientTransport, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { existsSync, readFileSync } from 'node:fs';

const scriptArg = process.argv[2];
const script = JSON.parse(scriptArg.startsWith('@') ? readFileSync(scriptArg.slice(1), 'utf8') : scriptArg);
const logs = [];
const stderrChunks = [];

const client = new Client({ name: 'meta-gateway-modern-test', version: '2.0.0' }, {
  capabilities: script.capabilities ?? {},
  versionNegotiation: { mode: script.mode ?? { pin: '2026-07-28' } },
});
client.setNotificationHandler('notifications/message', (n) => { logs.push(n.params); });
const inputs = [];
for (const [method, answer] of Object.entries(script.answers ?? {})) {
  client.setRequestHandler(method, async (request) => {
    inputs.push({ method, params: request.params ?? null });
    return answer;
  });
}

function makeTransport() {
  if (script.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(script.url), { requestInit: { headers: script.headers ?? {} } });
  }
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

async function call(step) {
  const progress = [];
  const controller = new AbortController();
  const options = { signal: controller.signal, timeout: step.timeoutMs ?? 60000 };
  if (step.progress || step.cancelAfterProgress) {
    options.onprogress = (p) => {
      progress.push(p);
      if (step.cancelAfterProgress && progress.length >= step.cancelAfterProgress) controller.abort('cancelled by the test');
    };
  }
  const params = { name: step.name, arguments: step.arguments ?? {} };
  if (step.logLevel) params._meta = { [LOG_LEVEL_META_KEY]: step.logLevel };
  try {
    return { ok: await client.callTool(params, options), progress };
  } catch (e) {
    return { ...failure(e), progress };
  }
}

// A tools/call that hands an input_required answer back as it is; with "retryOf" (a step index) it retries that
// step's answer with "inputResponses" and its requestState ("tamper": altered).
async function callRaw(step) {
  const params = { name: step.name, arguments: step.arguments ?? {} };
  if (step.retryOf !== undefined) {
    const state = out.steps[step.retryOf].ok.requestState;
    params.inputResponses = step.inputResponses ?? {};
    params.requestState = step.tamper ? state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA') : state;
  }
  try {
    return { ok: await client.request({ method: 'tools/call', params }, { allowInputRequired: true, timeout: step.timeoutMs ?? 60000 }) };
  } catch (e) {
    return failure(e);
  }
}

async function run(step) {
  switch (step.op) {
    case 'discover': return { ok: await client.discover() };
    case 'listTools': return { ok: await client.listTools(undefined, { cacheMode: 'refresh' }) };
    case 'call': return call(step);
    case 'callRaw': return callRaw(step);
    case 'readResource': return { ok: await client.readResource({ uri: step.uri }) };
    case 'listResources': return { ok: await client.listResources() };
    case 'listPrompts': return { ok: await client.listPrompts() };
    case 'getPrompt': return { ok: await client.getPrompt({ name: step.name, arguments: step.arguments ?? {} }) };
    case 'complete': return { ok: await client.complete({ ref: step.ref, argument: step.argument }) };
    case 'appendLine': { // tells the test how far the session got (a line per step reached)
      const { appendFileSync } = await import('node:fs');
      appendFileSync(step.path, step.text + '\n');
      return { ok: step.path };
    }
    case 'sleep': await new Promise((r) => setTimeout(r, step.ms)); return { ok: step.ms };
    case 'waitLines': { // until the file has `count` lines starting with `prefix` (what pods recorded)
      const lines = () => (existsSync(step.path) ? readFileSync(step.path, 'utf8').split('\n') : [])
        .filter((l) => l.startsWith(step.prefix));
      const end = Date.now() + (step.timeoutMs ?? 20000);
      while (lines().length < step.count) {
        if (Date.now() > end) throw new Error('fewer than ' + step.count + ' lines starting with ' + step.prefix + ' in ' + step.path);
        await new Promise((r) => setTimeout(r, 20));
      }
      return { ok: lines() };
    }
    default: throw new Error('unknown step ' + step.op);
  }
}

const out = { gatewayPid: null, steps: [], logs, inputs, stderr: '' };
try {
  await client.connect(transport);
  out.gatewayPid = transport.pid ?? null;
  out.sessionId = transport.sessionId ?? null;
  out.era = client.getProtocolEra() ?? null;
  out.version = client.getNegotiatedProtocolVersion() ?? null;
  out.discover = client.getDiscoverResult() ?? null;
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
  await client.close();
  out.stderr = stderrChunks.join('');
  process.stdout.write(JSON.stringify(out) + '\n');
}
