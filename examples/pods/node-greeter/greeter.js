#!/usr/bin/env node
// greeter: a bare JSON-RPC 2.0 pod (Node.js, no dependencies). It reads one request per line on stdin and
// writes one answer per line on stdout. It knows nothing of MCP: no initialize, no tools/list. Its tools are
// declared in examples/manifests/node-greeter.yaml, and the gateway serves its answers as tool results.
//
//   greet {name, language?}   {"greeting": "..."}  (language: en, ja, fr; default en)
//   add {a, b}                {"sum": a + b}
//
// Try it by hand:
//   echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}' | node greeter.js
'use strict';
const readline = require('readline');

const greetings = { en: 'Hello', ja: 'こんにちは', fr: 'Bonjour' };

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
    if (req.method !== 'tools/call') throw { code: -32601, message: 'method not found: ' + req.method };
    resp = { jsonrpc: '2.0', id: req.id, result: call(req.params.name, req.params.arguments || {}) };
  } catch (e) {
    resp = { jsonrpc: '2.0', id: req.id, error: { code: e.code || -32603, message: e.message || String(e) } };
  }
  console.log(JSON.stringify(resp));
});
