package org.metaruntime.module;

import java.util.Map;

/** The TypeScript SDK ({@code typescript/src/index.ts} over the MCP TypeScript SDK's server) on a C locale. */
class TypeScriptModuleProcessTest extends ModuleProcessContract {

    @Override
    ChildModule start() throws Exception {
        return ChildModule.node(Map.of("SAMPLE_PARTIES", "64"));
    }
}
