// hello: a tools bundle in TypeScript, on the @metaruntime/module SDK (a thin builder over the MCP TypeScript SDK).
//
//   hello {name}          "Hello, <name>! (from TypeScript)"
//   greeting.say {name}   the same: this bundle's implementation of verb "say" of seat "greeting"
//
// Compiled by the examples build (build/npm-ci.mjs --tsc) into examples/bundles/typescript/dist/hello.js.
import { ModuleServer, ToolError } from '@metaruntime/module';

const name = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const hello = (args: { [key: string]: unknown }) => {
  if (typeof args.name !== 'string') {
    throw new ToolError("'name' must be a string");
  }
  return `Hello, ${args.name}! (from TypeScript)`;
};

await ModuleServer.builder('hello-typescript')
  .tool('hello', name, hello, { description: 'Greets someone by name (TypeScript).' })
  .tool('greeting.say', name, hello, { description: 'Seat greeting, verb say (TypeScript).' })
  .build()
  .serve();
