// hello: a tools bundle in TypeScript, on the @metaruntime/module SDK (a thin builder over the MCP TypeScript SDK).
//
//   hello {name}   "Hello, <name>! (from TypeScript)"
//
// Compiled by examples/bundles/node/install.mjs into examples/bundles/node/dist/hello.js.
import { ModuleServer, ToolError } from '@metaruntime/module';
await ModuleServer.builder('hello-typescript')
    .tool('hello', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, (args) => {
    if (typeof args.name !== 'string') {
        throw new ToolError("'name' must be a string");
    }
    return `Hello, ${args.name}! (from TypeScript)`;
}, { description: 'Greets someone by name (TypeScript).' })
    .build()
    .serve();
