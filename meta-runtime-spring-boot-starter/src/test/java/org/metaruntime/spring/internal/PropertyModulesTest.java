package org.metaruntime.spring.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleProtocol;
import org.metaruntime.spring.MetaRuntimeProperties;
import org.metaruntime.spring.MetaRuntimeProperties.Protocol;

/** The {@code protocol} property is the module's declared protocol: no pre-spawn marker decides it. */
class PropertyModulesTest {

    private static MetaRuntimeProperties.Module module(Protocol protocol, String... tools) {
        MetaRuntimeProperties.Module module = new MetaRuntimeProperties.Module();
        module.setCommand(List.of("python3", "module.py"));
        module.setProtocol(protocol);
        List<MetaRuntimeProperties.Tool> declared = new ArrayList<>();
        for (String name : tools) {
            MetaRuntimeProperties.Tool tool = new MetaRuntimeProperties.Tool();
            tool.setName(name);
            declared.add(tool);
        }
        module.setTools(declared);
        return module;
    }

    @Test
    void eachProtocolIsDeclaredOnTheModuleAndNoModuleGetsAPreSpawnMarker() {
        Map<String, MetaRuntimeProperties.Module> modules = new LinkedHashMap<>();
        modules.put("tools", module(Protocol.MCP));
        modules.put("once", module(Protocol.EVENT_LINE));
        modules.put("legacy", module(Protocol.JSONRPC, "lookup"));
        MetaRuntimeProperties.Module remote = new MetaRuntimeProperties.Module();
        remote.setUrl(URI.create("http://127.0.0.1:9/mcp"));
        modules.put("remote", remote);
        MetaRuntimeProperties properties = new MetaRuntimeProperties();
        properties.setModules(modules);

        MetaConfig config = ModuleSources.declare(properties).config();

        assertThat(config.preSpawn()).isEmpty();
        assertThat(config.module("tools").orElseThrow().declaredProtocol()).contains(ModuleProtocol.mcp());
        assertThat(config.module("once").orElseThrow().declaredProtocol()).contains(ModuleProtocol.eventLine());
        assertThat(config.module("legacy").orElseThrow().declaredProtocol().orElseThrow())
                .isInstanceOfSatisfying(ModuleProtocol.BareJsonRpc.class,
                        bare -> assertThat(bare.tools()).extracting(t -> t.name()).containsExactly("lookup"));
        assertThat(config.module("remote").orElseThrow().declaredProtocol()).contains(ModuleProtocol.mcp());
        assertThat(config.boundaryOf("tools")).isEqualTo(ModuleBoundaryKind.MCP);
        assertThat(config.boundaryOf("once")).isEqualTo(ModuleBoundaryKind.EVENT_LINE);
        assertThat(config.boundaryOf("legacy")).isEqualTo(ModuleBoundaryKind.MCP);
    }
}
