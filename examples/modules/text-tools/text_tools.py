#!/usr/bin/env python3
"""text-tools: an MCP stdio module in Python, written with the meta_module SDK (standard library only).

Tools:
  word_count {text}          {"words", "lines", "characters"} (structuredContent from 2025-06-18 on)
  reverse {text}             the text reversed (by code point)
  crash {exit_code?}         exits the process at once with exit_code (default 3), without answering:
                             it shows how the runtime notices a dead module and restarts it

Environment:
  TEXT_TOOLS_PID_FILE        when set, the server appends its pid to this file at start (tests use it
                             to check that no process outlives the runtime)

meta_module.py is one file: a module of your own copies it next to itself. This example imports it from
meta-module/python in this repository.

Try it by hand:
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"0"}}}' \
     '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reverse","arguments":{"text":"abc"}}}' | python3 text_tools.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "meta-module", "python"))
from meta_module import ModuleServer, ToolError  # noqa: E402

TEXT_INPUT = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "the text to work on"}},
    "required": ["text"],
}
COUNTS = {
    "type": "object",
    "properties": {"words": {"type": "integer"}, "lines": {"type": "integer"}, "characters": {"type": "integer"}},
    "required": ["words", "lines", "characters"],
}


def text_arg(args):
    text = args.get("text")
    if not isinstance(text, str):
        raise ToolError("'text' must be a string")
    return text


def word_count(args):
    text = text_arg(args)
    return {"words": len(text.split()), "lines": len(text.splitlines()), "characters": len(text)}


def reverse(args):
    return text_arg(args)[::-1]


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
    server = (ModuleServer.builder("text-tools")
              .tool("word_count", TEXT_INPUT, word_count,
                    description="Counts the words, lines and characters of a text.", output_schema=COUNTS)
              .tool("reverse", TEXT_INPUT, reverse, description="Reverses a text.")
              .tool("crash", {"type": "object",
                              "properties": {"exit_code": {"type": "integer", "minimum": 1, "maximum": 255}}},
                    crash, description="Makes this server exit at once with a non-zero code (to demonstrate supervision).")
              .build())
    server.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
