#!/usr/bin/env node
// greeter: a minimal MCP server over stdio in Node.js, without dependencies: one JSON-RPC 2.0 message per line.
// It answers initialize, ping, tools/list and tools/call; its tools are also declared in
// examples/manifests/node-greeter.yaml, so the gateway lists them without starting it.
//
//   greet {name, language?}   {"greeting": "..."}  (language: en, ja, fr; default en)
//   add {a, b}                {"sum": a + b}
//
// Try it by hand:
//   echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}' | node greeter.js
'use strict';
const readline = require('readline');

const greetings = { en: 'Hello', ja: 'こんにちは', fr: 'Bonjour' };

const tools = [
  { name: 'greet', description: 'Greets someone by name', inputSchema: { type: 'object', required: ['name'],
    properties: { name: { type: 'string' }, language: { type: 'string', enum: ['en', 'ja', 'fr'] } } } },
  { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', required: ['a', 'b'],
    properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];

function result(value) {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function answer(method, params) {
  switch (method) {
    case 'initialize':
      return { protocolVersion: params.protocolVersion || '2025-06-18', capabilities: { tools: {} },
        serverInfo: { name: 'greeter', version: '1.0.0' } };
    case 'ping': return {};
    case 'tools/list': return { tools };
    case 'tools/call': return result(call(params.name, params.arguments || {}));
    default: throw { code: -32601, message: 'method not found: ' + method };
  }
}

function call(name, args) {
  switch (name) {
    case 'greet': {
      const word = greetings[args.language || 'en'];
      if (!word) throw { code: -32602, message: 'unknown language ' + args.language };
      return { greeting: `${word}, ${args.name} 🎉` };
    }
    case 'add':
      return { sum: Number(args.a) + Number(args.b) };
    default:
      throw { code: -32602, message: 'unknown tool ' + name };
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    console.log(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
    return;
  }
  if (req.id === undefined) return; // a notification: no answer
  let resp;
  try {
    resp = { jsonrpc: '2.0', id: req.id, result: answer(req.method, req.params || {}) };
  } catch (e) {
    resp = { jsonrpc: '2.0', id: req.id, error: { code: e.code || -32603, message: e.message || String(e) } };
  }
  console.log(JSON.stringify(resp));
});
