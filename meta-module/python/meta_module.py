"""meta_module: write a meta-runtime module in Python (one file, standard library only, Python 3.8+).

A module is an MCP server over stdio: newline-delimited JSON-RPC 2.0 on stdin and stdout, UTF-8.

    from meta_module import ModuleServer, ToolError

    def word_count(args):
        text = args.get("text")
        if not isinstance(text, str):
            raise ToolError("'text' must be a string")
        return {"words": len(text.split())}

    ModuleServer.builder("text-tools") \\
        .tool("word_count", {"type": "object", "properties": {"text": {"type": "string"}}}, word_count) \\
        .build() \\
        .serve()

What a handler returns becomes the tool result: a ToolResult as it is; a str as one text block; a dict as
structuredContent plus its JSON as the text block; anything else JSON-encodable as its JSON text. A raised
ToolError becomes a result with isError: true and its message; any other exception too, with its traceback
on stderr.

It answers initialize, ping, tools/list and tools/call, and honours notifications/cancelled (the cancelled
call's answer is not sent). Tool calls run on a pool of threads (max_concurrent_calls, default 64); calls
beyond max_queued_calls get a JSON-RPC error at once. A line that is not JSON, or is longer than
max_line_bytes, is skipped and reported on stderr. At end of input the calls already read are finished and
answered (for at most drain_timeout seconds), then serve() returns. While serve() runs, sys.stdout points at
stderr, so a stray print() cannot corrupt the protocol.
"""
import json
import os
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor, wait

__all__ = ["ModuleServer", "Tool", "ToolError", "ToolResult"]

VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
STRUCTURED_FROM = "2025-06-18"  # outputSchema and structuredContent exist from this revision on


class ToolError(Exception):
    """Raised by a handler to refuse a call: the caller gets isError: true with this message."""


class ToolResult:
    """A CallToolResult: content blocks, optional structured content (a dict), whether it is an error."""

    def __init__(self, content, structured_content=None, is_error=False):
        self.content = list(content)
        for block in self.content:
            if not isinstance(block, dict) or not isinstance(block.get("type"), str):
                raise ValueError("a content block must be a dict with a 'type': %r" % (block,))
        if structured_content is not None and not isinstance(structured_content, dict):
            raise ValueError("structured_content must be a dict")
        self.structured_content = structured_content
        self.is_error = bool(is_error)

    @staticmethod
    def text(text):
        return ToolResult([{"type": "text", "text": text}])

    @staticmethod
    def structured(obj):
        return ToolResult([{"type": "text", "text": _dumps(obj)}], obj)

    @staticmethod
    def error(message):
        return ToolResult([{"type": "text", "text": message}], None, True)

    def to_json(self, with_structured):
        result = {"content": self.content}
        if with_structured and self.structured_content is not None:
            result["structuredContent"] = self.structured_content
        if self.is_error:
            result["isError"] = True
        return result


class Tool:
    """A tool: name, input schema (a JSON object schema), description, optional output schema."""

    def __init__(self, name, input_schema, description="", output_schema=None):
        if not isinstance(name, str) or not name or len(name) > 128 or \
                any(not (c.isascii() and (c.isalnum() or c in "_-.")) for c in name):
            raise ValueError("tool name %r must be letters, digits, '_', '-' and '.', 1 to 128 characters" % (name,))
        for what, schema in (("input_schema", input_schema), ("output_schema", output_schema)):
            if schema is not None and (not isinstance(schema, dict) or schema.get("type") != "object"):
                raise ValueError("tool %s: %s must be a dict with \"type\": \"object\"" % (name, what))
        if input_schema is None:
            raise ValueError("tool %s: input_schema is required" % name)
        self.name = name
        self.input_schema = input_schema
        self.description = description or ""
        self.output_schema = output_schema

    def to_json(self, with_output):
        entry = {"name": self.name}
        if self.description:
            entry["description"] = self.description
        entry["inputSchema"] = self.input_schema
        if with_output and self.output_schema is not None:
            entry["outputSchema"] = self.output_schema
        return entry


def _dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Builder:
    def __init__(self, name):
        if not isinstance(name, str) or not name.strip():
            raise ValueError("the server name must not be blank")
        self._name = name
        self._version = "1.0.0"
        self._tools = {}
        self._limits = {"max_concurrent_calls": 64, "max_queued_calls": 4096,
                        "max_line_bytes": 16 * 1024 * 1024, "drain_timeout": 60.0}

    def version(self, version):
        self._version = version
        return self

    def tool(self, name, input_schema, handler, description="", output_schema=None):
        tool = name if isinstance(name, Tool) else Tool(name, input_schema, description, output_schema)
        if not callable(handler):
            raise ValueError("tool %s: the handler must be callable" % tool.name)
        if tool.name in self._tools:
            raise ValueError("tool %s is added twice" % tool.name)
        self._tools[tool.name] = (tool, handler)
        return self

    def limits(self, max_concurrent_calls=None, max_queued_calls=None, max_line_bytes=None, drain_timeout=None):
        for key, value in (("max_concurrent_calls", max_concurrent_calls), ("max_queued_calls", max_queued_calls),
                           ("max_line_bytes", max_line_bytes), ("drain_timeout", drain_timeout)):
            if value is not None:
                if value < (1 if key == "max_concurrent_calls" else 0):
                    raise ValueError("%s must not be %r" % (key, value))
                self._limits[key] = value
        return self

    def build(self):
        if not self._tools:
            raise ValueError("module %s has no tool" % self._name)
        return ModuleServer(self._name, self._version, dict(self._tools), dict(self._limits))


class ModuleServer:
    """A module's MCP server over stdio. Build it with ModuleServer.builder(name); serve() runs one session."""

    def __init__(self, name, version, tools, limits):
        self.name = name
        self.version = version
        self._tools = tools
        self._limits = limits

    @staticmethod
    def builder(name):
        return _Builder(name)

    def tools(self):
        return [tool for tool, _ in self._tools.values()]

    def serve(self, stdin=None, stdout=None, log=None):
        """Serves until stdin ends and every call read is answered (binary streams; default the process's)."""
        redirected = stdin is None and stdout is None
        stdin = stdin if stdin is not None else sys.stdin.buffer
        stdout = stdout if stdout is not None else sys.stdout.buffer
        log = log if log is not None else sys.stderr
        previous = sys.stdout
        if redirected:
            sys.stdout = sys.stderr
        try:
            return _Session(self, stdout, log).run(stdin)
        finally:
            if redirected:
                sys.stdout = previous


class _Session:
    def __init__(self, server, out, log):
        self.server = server
        self.out = out
        self.log_stream = log
        self.write_lock = threading.Lock()
        self.broken = False
        self.version = VERSIONS[0]
        self.in_flight = {}  # request id (as JSON text) -> cancelled flag
        self.in_flight_lock = threading.Lock()
        limits = server._limits
        self.slots = threading.BoundedSemaphore(limits["max_concurrent_calls"] + limits["max_queued_calls"])
        self.pool = ThreadPoolExecutor(max_workers=limits["max_concurrent_calls"],
                                       thread_name_prefix="meta-module-call")
        self.futures = set()

    def log(self, text):
        try:
            self.log_stream.write("[%s] %s\n" % (self.server.name, text))
            self.log_stream.flush()
        except (OSError, ValueError):
            pass

    def send(self, message):
        data = (_dumps(message) + "\n").encode("utf-8")
        with self.write_lock:
            if self.broken:
                return
            try:
                self.out.write(data)
                self.out.flush()
            except (OSError, ValueError) as e:
                self.broken = True
                self.log("stdout is closed, answers are dropped from now on: %s" % e)

    def reply(self, msg_id, result):
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def fail(self, msg_id, code, message):
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def run(self, stdin):
        limit = self.server._limits["max_line_bytes"]
        try:
            while True:
                line = stdin.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and not line.endswith(b"\n"):
                    skipped = len(line)
                    while line and not line.endswith(b"\n"):
                        line = stdin.readline(1 << 20)
                        skipped += len(line)
                    self.log("skipped an input line of %d bytes (longer than %d)" % (skipped, limit))
                    continue
                if line.strip():
                    self.handle(line)
        except (OSError, ValueError) as e:
            self.log("stdin failed, ending the session: %s" % e)
        return self.drain()

    def drain(self):
        self.pool.shutdown(wait=False)
        with self.in_flight_lock:
            pending = [f for f in self.futures if not f.done()]
        _, not_done = wait(pending, timeout=self.server._limits["drain_timeout"])
        if not_done:
            self.log("end of input: %d call(s) still running after %s s are abandoned"
                     % (len(not_done), self.server._limits["drain_timeout"]))
            try:
                self.out.flush()
            finally:
                os._exit(0)  # abandoned worker threads would otherwise hold the interpreter open

    def handle(self, raw):
        try:
            message = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.log("skipped an input line that is not JSON: %s" % raw[:80].decode("utf-8", "replace").rstrip())
            return
        if not isinstance(message, dict):
            self.log("skipped an input line that is not a JSON object: %s"
                     % raw[:80].decode("utf-8", "replace").rstrip())
            return
        method = message.get("method")
        if method is None:
            return  # a response: this server sends no requests
        msg_id = message.get("id")
        valid_id = msg_id is None or isinstance(msg_id, str) or (isinstance(msg_id, int) and not isinstance(msg_id, bool))
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str) or not valid_id:
            if "id" in message and valid_id:
                self.fail(msg_id, -32600, "Invalid Request")
            else:
                self.log("skipped a message that is not a JSON-RPC 2.0 request: %s"
                         % raw[:80].decode("utf-8", "replace").rstrip())
            return
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if "id" not in message:
            if method == "notifications/cancelled":
                with self.in_flight_lock:
                    flag = self.in_flight.pop(_dumps(params.get("requestId")), None)
                if flag is not None:
                    flag.set()
            return
        if method == "initialize":
            requested = params.get("protocolVersion")
            self.version = requested if requested in VERSIONS else VERSIONS[0]
            self.reply(msg_id, {"protocolVersion": self.version, "capabilities": {"tools": {"listChanged": False}},
                                "serverInfo": {"name": self.server.name, "version": self.server.version}})
        elif method == "ping":
            self.reply(msg_id, {})
        elif method == "tools/list":
            structured = self.version >= STRUCTURED_FROM  # ISO dates compare as strings
            self.reply(msg_id, {"tools": [tool.to_json(structured) for tool in self.server.tools()]})
        elif method == "tools/call":
            self.submit(msg_id, params)
        else:
            self.fail(msg_id, -32601, "Method not found: %s" % method)

    def submit(self, msg_id, params):
        name = params.get("name")
        entry = self.server._tools.get(name) if isinstance(name, str) else None
        if entry is None:
            self.fail(msg_id, -32602, "Unknown tool: %s" % name)
            return
        args = params.get("arguments")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            self.fail(msg_id, -32602, "tool %s: arguments must be a JSON object" % name)
            return
        key = _dumps(msg_id)
        cancelled = threading.Event()
        with self.in_flight_lock:
            if key in self.in_flight:
                self.fail(msg_id, -32600, "request id %s is already in flight" % key)
                return
            if not self.slots.acquire(blocking=False):
                limits = self.server._limits
                self.fail(msg_id, -32000, "the module is busy: %d calls running and %d waiting"
                          % (limits["max_concurrent_calls"], limits["max_queued_calls"]))
                return
            self.in_flight[key] = cancelled
            future = self.pool.submit(self.run_call, msg_id, key, entry, args, cancelled)
            self.futures.add(future)
        future.add_done_callback(self.forget)

    def forget(self, future):
        with self.in_flight_lock:
            self.futures.discard(future)

    def run_call(self, msg_id, key, entry, args, cancelled):
        tool, handler = entry
        try:
            result = self.to_result(handler(args))
        except ToolError as e:
            result = ToolResult.error(str(e))
        except Exception as e:  # a bug in the tool: the caller gets an error result, stderr the traceback
            self.log("tool %s failed: %r" % (tool.name, e))
            traceback.print_exc(file=self.log_stream)
            result = ToolResult.error("tool %s failed: %r" % (tool.name, e))
        finally:
            with self.in_flight_lock:
                self.in_flight.pop(key, None)
            self.slots.release()
        if not cancelled.is_set():
            self.reply(msg_id, result.to_json(self.version >= STRUCTURED_FROM))

    @staticmethod
    def to_result(value):
        if isinstance(value, ToolResult):
            return value
        if value is None:
            return ToolResult.text("")
        if isinstance(value, str):
            return ToolResult.text(value)
        if isinstance(value, dict):
            return ToolResult.structured(value)
        return ToolResult.text(_dumps(value))
