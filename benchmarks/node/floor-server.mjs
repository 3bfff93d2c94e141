// The client floor of the gateway comparison over HTTP: a Streamable HTTP MCP server that does no work, so a
// client's time against it is the least any server can cost that client.
// usage: node floor-server.mjs [port]   (0, the default: a free port; prints the port on stdout once listening)
//   POST initialize      answered as JSON, with an Mcp-Session-Id
//   POST notification    202
//   POST tools/call      answered at once as JSON, content[0].text = arguments.text
//   POST tools/list      the one tool, echo
//   GET 405, DELETE 200
import http from 'node:http';

const SESSION = 'floor';
const TOOLS = [{ name: 'echo', inputSchema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } }];

function answer(message) {
  switch (message.method) {
    case 'initialize':
      return { result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: 'floor', version: '1.0.0' } } };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: message.params.arguments.text }] } };
    case 'tools/list':
      return { result: { tools: TOOLS } };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: 'no method ' + message.method } };
  }
}

function reply(res, status, body) {
  const headers = { 'mcp-session-id': SESSION };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  res.writeHead(status, headers);
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') return reply(res, 405);
  if (req.method === 'DELETE') return reply(res, 200);
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(body);
    } catch (e) {
      return reply(res, 400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'not JSON' } }));
    }
    if (message.id === undefined) return reply(res, 202);
    reply(res, 200, JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer(message) }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => console.log(server.address().port));
