"""The Python module the meta-module tests run: one tool per behaviour under test."""
import os
import sys
import threading
import time

sys.path.insert(0, os.environ["META_MODULE_PYTHON"])
from meta_module import ModuleServer, ToolError  # noqa: E402

PARTIES = int(os.environ.get("SAMPLE_PARTIES", "64"))
barrier = threading.Barrier(PARTIES)


def gather(args):
    barrier.wait(60)
    return "gathered %d" % args.get("n", 0)


def slow(args):
    time.sleep(args["ms"] / 1000.0)
    return "slept %d" % args["ms"]


def block(args):
    time.sleep(5)
    return "late"


def noisy(args):
    print("a stray line on stdout")
    return "quiet"


def refuse(args):
    raise ToolError("no, thank you")


def reverse(args):
    print("reversing %s" % args.get("text"), file=sys.stderr)
    return args.get("text", "")[::-1]


OBJECT = {"type": "object"}
(ModuleServer.builder("sample")
 .tool("word_count", {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
       lambda a: {"words": len(a["text"].split())},
       output_schema={"type": "object", "properties": {"words": {"type": "integer"}}})
 .tool("reverse", OBJECT, reverse)
 .tool("gather", OBJECT, gather)
 .tool("slow", OBJECT, slow)
 .tool("block", OBJECT, block)
 .tool("noisy", OBJECT, noisy)
 .tool("refuse", OBJECT, refuse)
 .tool("explode", OBJECT, lambda a: 1 / 0)
 .build()
 .serve())
