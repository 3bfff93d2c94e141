#!/usr/bin/env python3
"""text-tools: an MCP stdio server module (python3, standard library only).

Speaks JSON-RPC 2.0 over stdio, one JSON message per line (MCP stdio transport):
  initialize                 answers with the client's protocolVersion when it is supported,
                             otherwise with the newest supported one
  notifications/initialized  accepted (no answer, as for every notification)
  ping                       answers {}
  tools/list                 word_count, reverse, crash
  tools/call                 runs a tool; bad arguments come back as a result with isError: true,
                             an unknown tool as JSON-RPC error -32602
Any other request gets -32601, a line that is not JSON gets -32700. The server exits 0 on stdin EOF.

Tools:
  word_count {text}          {"words", "lines", "characters"} (structuredContent from 2025-06-18 on)
  reverse {text}             the text reversed (by code point)
  crash {exit_code?}         exits the process at once with exit_code (default 3), without answering:
                             it shows how the runtime notices a dead module and restarts it

Environment:
  TEXT_TOOLS_PID_FILE        when set, the server appends its pid to this file at start (tests use it
                             to check that no process outlives the runtime)

Try it by hand:
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"0"}}}' \
     '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reverse","arguments":{"text":"abc"}}}' | python3 text_tools.py
"""
import json
import os
import sys

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
STRUCTURED_FROM = "2025-06-18"  # structuredContent and outputSchema exist from this revision on

TEXT_INPUT = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "the text to work on"}},
    "required": ["text"],
}

TOOLS = [
    {
        "name": "word_count",
        "description": "Counts the words, lines and characters of a text.",
        "inputSchema": TEXT_INPUT,
        "outputSchema": {
            "type": "object",
            "properties": {
                "words": {"type": "integer"},
                "lines": {"type": "integer"},
                "characters": {"type": "integer"},
            },
            "required": ["words", "lines", "characters"],
        },
    },
    {
        "name": "reverse",
        "description": "Reverses a text.",
        "inputSchema": TEXT_INPUT,
    },
    {
        "name": "crash",
        "description": "Makes this server exit at once with a non-zero code (to demonstrate supervision).",
        "inputSchema": {
            "type": "object",
            "properties": {"exit_code": {"type": "integer", "minimum": 1, "maximum": 255}},
        },
    },
]


class ToolError(Exception):
    """Bad tool arguments: reported as a tool result with isError: true."""


class Server:
    def __init__(self, out):
        self.out = out
        self.version = SUPPORTED_VERSIONS[0]

    def send(self, message):
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
        self.out.write(line.encode("utf-8"))
        self.out.flush()

    def reply(self, msg_id, result):
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def fail(self, msg_id, code, message):
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def structured(self):
        return self.version >= STRUCTURED_FROM  # ISO dates compare as strings

    def handle_line(self, raw):
        try:
            message = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.fail(None, -32700, "Parse error")
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.fail(message.get("id") if isinstance(message, dict) else None, -32600, "Invalid Request")
            return
        method = message.get("method")
        if method is None:
            return  # a response to a request we never send
        params = message.get("params") or {}
        if "id" not in message:
            return  # notifications (initialized, cancelled, ...) need no answer
        msg_id = message["id"]
        if not isinstance(method, str) or not isinstance(params, dict):
            self.fail(msg_id, -32600, "Invalid Request")
        elif method == "initialize":
            self.reply(msg_id, self.initialize(params))
        elif method == "ping":
            self.reply(msg_id, {})
        elif method == "tools/list":
            self.reply(msg_id, {"tools": self.tool_list()})
        elif method == "tools/call":
            self.call_tool(msg_id, params)
        else:
            self.fail(msg_id, -32601, "Method not found: %s" % method)

    def initialize(self, params):
        requested = params.get("protocolVersion")
        self.version = requested if requested in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
        return {
            "protocolVersion": self.version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "text-tools", "version": "1.0.0"},
        }

    def tool_list(self):
        if self.structured():
            return TOOLS
        return [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in TOOLS]

    def call_tool(self, msg_id, params):
        name = params.get("name")
        args = params.get("arguments") or {}
        handlers = {"word_count": self.word_count, "reverse": self.reverse, "crash": self.crash}
        if name not in handlers:
            self.fail(msg_id, -32602, "Unknown tool: %s" % name)
            return
        try:
            if not isinstance(args, dict):
                raise ToolError("arguments must be an object")
            result = handlers[name](args)
        except ToolError as e:
            result = {"content": [{"type": "text", "text": str(e)}], "isError": True}
        self.reply(msg_id, result)

    @staticmethod
    def text_arg(args):
        text = args.get("text")
        if not isinstance(text, str):
            raise ToolError("'text' must be a string")
        return text

    def word_count(self, args):
        text = self.text_arg(args)
        counts = {"words": len(text.split()), "lines": len(text.splitlines()), "characters": len(text)}
        result = {"content": [{"type": "text", "text": json.dumps(counts)}]}
        if self.structured():
            result["structuredContent"] = counts
        return result

    def reverse(self, args):
        return {"content": [{"type": "text", "text": self.text_arg(args)[::-1]}]}

    @staticmethod
    def crash(args):
        code = args.get("exit_code", 3)
        if not isinstance(code, int) or isinstance(code, bool) or not 1 <= code <= 255:
            raise ToolError("'exit_code' must be an integer from 1 to 255")
        print("text-tools: crashing on request with exit code %d" % code, file=sys.stderr, flush=True)
        os._exit(code)


def main():
    pid_file = os.environ.get("TEXT_TOOLS_PID_FILE")
    if pid_file:
        with open(pid_file, "a", encoding="utf-8") as f:
            f.write("%d\n" % os.getpid())
    server = Server(sys.stdout.buffer)
    for raw in sys.stdin.buffer:
        raw = raw.strip()
        if raw:
            server.handle_line(raw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
