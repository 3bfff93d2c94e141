const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });

rl.on("line", (line) => {
  const req = JSON.parse(line);
  const resp = { jsonrpc: "2.0", id: req.id, result: { status: "ok" } };
  console.log(JSON.stringify(resp));
});
