// @metaruntime/module: write a meta-runtime module in TypeScript, as an MCP server over stdio.
//
//   import { ModuleServer, ToolError } from '@metaruntime/module';
//
//   await ModuleServer.builder('word-tools')
//     .tool('word_count', { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
//       (args) => {
//         if (typeof args.text !== 'string') throw new ToolError("'text' must be a string");
//         return { words: args.text.split(/\s+/).filter(Boolean).length };
//       })
//     .build()
//     .serve();
//
// The protocol is the MCP TypeScript SDK's own (`Server` and `StdioServerTransport`); this file adds the builder,
// the result conversion, a bound on input lines and the end-of-input drain.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BoundedLines } from './lines.js';

/** A JSON object. */
export type JsonObject = { [key: string]: unknown };

/** A content block of a tool result (`text`, `image`, `resource`, ...). */
export type ContentBlock = { type: string; [key: string]: unknown };

/**
 * A tool's code: the call's arguments (an object) and an abort signal for the client's cancellation (it may be
 * aborted already when the handler starts: check `signal.aborted` as well as listening for `abort`).
 */
export type ToolHandler = (args: JsonObject, context: { signal: AbortSignal }) => unknown | Promise<unknown>;

/** Thrown by a handler to refuse a call: the caller gets `isError: true` with this message. */
export class ToolError extends Error {}

/** MCP's CallToolResult. A handler may return one; anything else is converted (see `ModuleServer`). */
export class ToolResult {
  constructor(readonly content: ContentBlock[], readonly structuredContent?: JsonObject, readonly isError = false) {}

  static text(text: string): ToolResult {
    return new ToolResult([{ type: 'text', text }]);
  }

  static structured(value: JsonObject): ToolResult {
    return new ToolResult([{ type: 'text', text: JSON.stringify(value) }], value);
  }

  static error(message: string): ToolResult {
    return new ToolResult([{ type: 'text', text: message }], undefined, true);
  }

  toJson(): { content: ContentBlock[]; structuredContent?: JsonObject; isError?: boolean } {
    return {
      content: this.content,
      ...(this.structuredContent !== undefined ? { structuredContent: this.structuredContent } : {}),
      ...(this.isError ? { isError: true } : {}),
    };
  }
}

/** A tool's description and output schema. */
export interface ToolOptions {
  description?: string;
  outputSchema?: JsonObject;
}

interface Registered {
  name: string;
  inputSchema: JsonObject;
  options: ToolOptions;
  handler: ToolHandler;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Builds a `ModuleServer`. */
export class ModuleServerBuilder {
  private readonly tools = new Map<string, Registered>();
  private serverVersion = '1.0.0';
  private lineLimit = 16 * 1024 * 1024;

  constructor(private readonly name: string) {
    if (!name || !name.trim()) {
      throw new Error('the server name must not be blank');
    }
  }

  /** Its `serverInfo.version` (default 1.0.0). */
  version(version: string): this {
    this.serverVersion = version;
    return this;
  }

  /** Adds a tool; `inputSchema` is a JSON Schema object with `type: 'object'`. */
  tool(name: string, inputSchema: JsonObject, handler: ToolHandler, options: ToolOptions = {}): this {
    if (!NAME.test(name)) {
      throw new Error(`tool name "${name}" must be letters, digits, '_', '-' and '.', 1 to 128 characters`);
    }
    for (const [what, schema] of [['inputSchema', inputSchema], ['outputSchema', options.outputSchema]] as const) {
      if (schema !== undefined && (schema === null || typeof schema !== 'object' || schema.type !== 'object')) {
        throw new Error(`tool ${name}: ${what} must be an object with type: 'object'`);
      }
    }
    if (this.tools.has(name)) {
      throw new Error(`tool ${name} is added twice`);
    }
    this.tools.set(name, { name, inputSchema, options, handler });
    return this;
  }

  /** The longest input line read (default 16 MiB); a longer one is skipped. */
  maxLineBytes(bytes: number): this {
    if (!Number.isInteger(bytes) || bytes < 1024) {
      throw new Error(`maxLineBytes must be an integer of at least 1024, was ${bytes}`);
    }
    this.lineLimit = bytes;
    return this;
  }

  build(): ModuleServer {
    if (this.tools.size === 0) {
      throw new Error(`module ${this.name} has no tool`);
    }
    return new ModuleServer(this.name, this.serverVersion, [...this.tools.values()], this.lineLimit);
  }
}

/**
 * A module's MCP server over stdio. What a handler returns becomes the result: a `ToolResult` as it is; a string
 * as one text block; a plain object as `structuredContent` plus its JSON as the text block; anything else as its
 * JSON text. A thrown `ToolError` gives `isError: true` with its message; any other error too, with its stack on
 * stderr. A line that is not a JSON object, or longer than the limit, is skipped and reported on stderr. At end of
 * input the calls in flight are finished and answered, then `serve()` resolves. While it runs, `console.log`,
 * `console.info` and `console.debug` write to stderr, so stdout carries only the protocol.
 */
export class ModuleServer {
  constructor(private readonly name: string, private readonly version: string,
              private readonly tools: Registered[], private readonly maxLineBytes: number) {}

  static builder(name: string): ModuleServerBuilder {
    return new ModuleServerBuilder(name);
  }

  /** Serves on the process's stdin and stdout; resolves when stdin has ended and every call is answered. */
  async serve(): Promise<void> {
    const log = (text: string) => process.stderr.write(`[${this.name}] ${text}\n`);
    console.log = console.info = console.debug = console.error;
    const byName = new Map(this.tools.map((tool) => [tool.name, tool]));
    const server = new Server({ name: this.name, version: this.version }, { capabilities: { tools: { listChanged: false } } });
    let inFlight = 0;
    let drained: (() => void) | undefined;

    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.tools.map((tool) => ({
        name: tool.name,
        ...(tool.options.description ? { description: tool.options.description } : {}),
        inputSchema: tool.inputSchema as { type: 'object' },
        ...(tool.options.outputSchema ? { outputSchema: tool.options.outputSchema as { type: 'object' } } : {}),
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = byName.get(request.params.name);
      if (!tool) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      }
      inFlight++;
      try {
        return toResult(await tool.handler((request.params.arguments ?? {}) as JsonObject, { signal: extra.signal })).toJson();
      } catch (error) {
        if (error instanceof ToolError) {
          return ToolResult.error(error.message).toJson();
        }
        log(`tool ${tool.name} failed: ${error instanceof Error ? error.stack : String(error)}`);
        return ToolResult.error(`tool ${tool.name} failed: ${String(error)}`).toJson();
      } finally {
        inFlight--;
        if (inFlight === 0 && drained) {
          drained();
        }
      }
    });

    const lines = new BoundedLines(this.maxLineBytes, log, (id) => process.stdout.write(
      JSON.stringify({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request' } }) + '\n'));
    const ended = new Promise<void>((resolve) => lines.on('end', () => resolve()));
    process.stdin.pipe(lines);
    // whole lines of at most maxLineBytes reach the SDK, so its own buffer bound is never the one that acts
    const transport = new StdioServerTransport(lines, process.stdout, { maxBufferSize: 2 * this.maxLineBytes + 2 });
    transport.onerror = (error) => log(`skipped a message: ${error.message}`);
    await server.connect(transport);
    lines.resume();
    await ended;
    if (inFlight > 0) {
      await new Promise<void>((resolve) => { drained = resolve; });
    }
    await new Promise<void>((resolve) => setImmediate(resolve)); // the last answers are written
    await server.close();
  }
}

function toResult(value: unknown): ToolResult {
  if (value instanceof ToolResult) {
    return value;
  }
  if (value === undefined || value === null) {
    return ToolResult.text('');
  }
  if (typeof value === 'string') {
    return ToolResult.text(value);
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    return ToolResult.structured(value as JsonObject);
  }
  return ToolResult.text(JSON.stringify(value));
}
