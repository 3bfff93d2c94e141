#!/usr/bin/env python3
"""hello: a tools bundle in Python, on the meta_module.py SDK (standard library only).

  hello {name}          "Hello, <name>! (from Python)"
  greeting.say {name}   the same: this bundle's implementation of verb "say" of seat "greeting"

meta_module.py is one file: a bundle of your own copies it next to itself; this one imports it from
meta-module/python in this repository.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "meta-module", "python"))
from meta_module import ModuleServer, ToolError  # noqa: E402

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def hello(args):
    name = args.get("name")
    if not isinstance(name, str):
        raise ToolError("'name' must be a string")
    return "Hello, %s! (from Python)" % name


if __name__ == "__main__":
    ModuleServer.builder("hello-python") \
        .tool("hello", NAME, hello, description="Greets someone by name (Python).") \
        .tool("greeting.say", NAME, hello, description="Seat greeting, verb say (Python).") \
        .build().serve()
