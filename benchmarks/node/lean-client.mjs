// A lean MCP client for the gateway comparison over HTTP: node's http module on one keep-alive agent and the least
// JSON-RPC a session needs, so that what it measures is mostly the server's cost, not the client's.
// usage: node lean-client.mjs <warm|inflight> '<json: {"url", "transport": "http"|"sse", "tool"}>' <count> [concurrency]
//   transport http  Streamable HTTP: every message is a POST to url; an answer comes as application/json or as a
//                   text/event-stream carrying it; the session ends with a DELETE
//   transport sse   HTTP+SSE: GET url opens the stream, whose `endpoint` event names where to POST each message;
//                   answers come on the stream, matched by id; the session ends by closing the stream
//   warm      sequential tools/call after a warm-up, µs per call
//   inflight  <concurrency> calls in flight until <count> are done, calls/s and lost calls
// Prints one JSON line, as gateway-bench.mjs does.
import http from 'node:http';
import { expect, main, sessionModes } from './timing.mjs';

const [mode, specArg, countArg, concurrencyArg] = process.argv.slice(2);
const spec = JSON.parse(specArg);
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? 64);

const PROTOCOL_VERSION = '2025-11-25';
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

// One HTTP request; resolves with the response once its head has arrived.
function send(agent, url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const all = body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) };
    const req = http.request(url, { method, agent, headers: all }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

function readBody(res) {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => { body += chunk; });
    res.on('end', () => resolve(body));
    res.on('error', reject);
  });
}

// Throws unless the response has one of `statuses`, with its body in the message.
async function check(res, statuses, what) {
  if (statuses.includes(res.statusCode)) return;
  throw new Error(what + ': HTTP ' + res.statusCode + ' ' + await readBody(res));
}

// Calls onEvent(type, data) for every event of a text/event-stream response, onEnd() when it ends.
function readEvents(res, onEvent, onEnd) {
  let buffer = '';
  let type = 'message';
  let data = [];
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length > 0) onEvent(type, data.join('\n'));
        type = 'message';
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(field(line, 5));
      } else if (line.startsWith('event:')) {
        type = field(line, 6);
      }
    }
  });
  res.on('error', onEnd);
  res.on('close', onEnd);
}

const field = (line, start) => line.slice(line[start] === ' ' ? start + 1 : start);

// JSON-RPC over one session's transport: exchange(message) sends a message and resolves with its answer (nothing
// for a notification).
class Session {
  nextId = 1;
  agent = new http.Agent({ keepAlive: true, maxSockets: concurrency + 2 });

  async request(method, params) {
    const answer = await this.exchange({ jsonrpc: '2.0', id: this.nextId++, method, params });
    if (answer.error) throw new Error(method + ': ' + answer.error.message);
    return answer.result;
  }

  notify(method) {
    return this.exchange({ jsonrpc: '2.0', method });
  }

  // Told the protocol version the server answered to initialize.
  negotiated(version) {
  }
}

class StreamableSession extends Session {
  headers = { ...POST_HEADERS };

  constructor(url) {
    super();
    this.url = url;
  }

  negotiated(version) {
    this.headers['mcp-protocol-version'] = version;
  }

  async exchange(message) {
    const res = await send(this.agent, this.url, 'POST', this.headers, JSON.stringify(message));
    await check(res, [200, 202], message.method ?? 'a notification');
    const session = res.headers['mcp-session-id'];
    if (session) this.headers['mcp-session-id'] = session;
    if (message.id === undefined) {
      res.resume();
      return undefined;
    }
    if (!String(res.headers['content-type']).startsWith('text/event-stream')) return JSON.parse(await readBody(res));
    return new Promise((resolve, reject) => readEvents(res, (type, data) => {
      const answer = JSON.parse(data);
      if (answer.id === message.id) resolve(answer);
    }, () => reject(new Error(message.method + ': the stream ended without the answer'))));
  }

  async close() {
    const res = await send(this.agent, this.url, 'DELETE', this.headers);
    await check(res, [200, 202, 204, 405], 'DELETE');
    await readBody(res);
    this.agent.destroy();
  }
}

class SseSession extends Session {
  pending = new Map();

  // Opens the GET stream and waits for its `endpoint` event.
  static async open(url) {
    const session = new SseSession();
    await session.listen(url);
    return session;
  }

  async listen(url) {
    this.stream = await send(this.agent, url, 'GET', { accept: 'text/event-stream' });
    await check(this.stream, [200], 'GET ' + url);
    this.endpoint = await new Promise((resolve, reject) => readEvents(this.stream, (type, data) => {
      if (type === 'endpoint') return resolve(new URL(data, url));
      const answer = JSON.parse(data);
      this.pending.get(answer.id)?.resolve(answer);
    }, () => {
      const ended = new Error('the event stream ended');
      reject(ended);
      this.pending.forEach((waiting) => waiting.reject(ended));
    }));
  }

  async exchange(message) {
    if (message.id === undefined) return this.post(message);
    const answer = new Promise((resolve, reject) => this.pending.set(message.id, { resolve, reject }));
    try {
      return (await Promise.all([answer, this.post(message)]))[0];
    } finally {
      this.pending.delete(message.id);
    }
  }

  async post(message) {
    const res = await send(this.agent, this.endpoint, 'POST', POST_HEADERS, JSON.stringify(message));
    await check(res, [200, 202], message.method);
    await readBody(res);
  }

  close() {
    this.stream.destroy();
    this.agent.destroy();
  }
}

async function connect() {
  const session = spec.transport === 'sse' ? await SseSession.open(spec.url) : new StreamableSession(spec.url);
  const init = await session.request('initialize', {
    protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-lean', version: '1.0.0' },
  });
  session.negotiated(init.protocolVersion);
  await session.notify('notifications/initialized');
  return session;
}

async function echo(session, text) {
  const result = await session.request('tools/call', { name: spec.tool, arguments: { text } });
  return expect(text, result.content[0].text);
}

await main(mode, sessionModes({ count, concurrency, connect, call: echo }));
