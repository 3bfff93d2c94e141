package org.metaruntime.gateway.internal.pin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.contract.DefinitionHash;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.OnDrift;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.mcp.McpProtocolEra;

class DefinitionPinsTest {

    private static PodManifest pod(OnDrift onDrift, DeclaredTool... tools) {
        return new PodManifest("p", null, Path.of("p.yaml"), 1, List.of("python3"), null, Path.of("."), null,
                Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(5), false, PodManifest.HealthCheck.DISABLED,
                List.of(tools), null, PodManifest.Protocol.MCP, null, null, McpProtocolEra.AUTO, java.util.Set.of(), onDrift);
    }

    private static ObjectNode tool(String name, String description) {
        ObjectNode tool = JsonRpc.NODES.objectNode().put("name", name).put("description", description).put("title", "T");
        tool.putObject("inputSchema").put("type", "object");
        return tool;
    }

    @Test
    void theDefinitionHashCoversNameDescriptionSchemasAndAnnotationsOnly() {
        ObjectNode a = tool("read", "Reads");
        ObjectNode b = a.deepCopy().put("title", "Another title");
        b.putObject("_meta").put("x", 1);
        assertThat(DefinitionHash.of(a)).isEqualTo(DefinitionHash.of(b));
        assertThat(DefinitionHash.hashed(a).fieldNames()).toIterable().containsExactly("name", "description", "inputSchema");
        ObjectNode c = a.deepCopy();
        c.putObject("annotations").put("readOnlyHint", true);
        assertThat(DefinitionHash.of(c)).isNotEqualTo(DefinitionHash.of(a)).matches("sha256:[0-9a-f]{64}");
    }

    @Test
    void firstUseIsPinnedThenADriftIsWarnedOfByDefaultWithOneEventPerFoundHash() {
        DefinitionPins pins = new DefinitionPins(new PinLog(null, java.time.Clock.systemUTC()));
        PodManifest pod = pod(null);
        assertThat(pins.observe(pod, List.of(tool("read", "Reads")))).isFalse();
        String first = DefinitionHash.of(tool("read", "Reads"));
        assertThat(pins.tofuPin("p", "read")).isEqualTo(first);
        assertThat(pins.observe(pod, List.of(tool("read", "Reads and mails")))).isFalse();
        assertThat(pins.blocked("p", "read")).isFalse();
        assertThat(pins.check("p", "read")).isEmpty();
        assertThat(pins.seen(pod, "read", null).drift()).isEqualTo(OnDrift.WARN);
        assertThat(pins.seen(pod, "read", null).pin()).isEqualTo(first);
        pins.observe(pod, List.of(tool("read", "Reads")));
        assertThat(pins.seen(pod, "read", null).drift()).isNull();
    }

    @Test
    void aBlockedDriftIsAnsweredMinus31002WithExpectedAndFound() {
        DefinitionPins pins = new DefinitionPins(new PinLog(null, java.time.Clock.systemUTC()));
        PodManifest pod = pod(OnDrift.BLOCK);
        pins.observe(pod, List.of(tool("read", "Reads")));
        String expected = DefinitionHash.of(tool("read", "Reads"));
        String found = DefinitionHash.of(tool("read", "Reads and mails"));
        assertThat(pins.observe(pod, List.of(tool("read", "Reads and mails")))).isTrue();
        assertThat(pins.blocked("p", "read")).isTrue();
        RpcException error = pins.check("p", "read").orElseThrow();
        assertThat(error.code()).isEqualTo(-31002);
        assertThat(error.getMessage()).isEqualTo("pod p tool read: definition changed: expected " + expected + ", found " + found);
        assertThat(error.data()).isEqualTo(JsonRpc.NODES.objectNode().put("pod", "p").put("tool", "read")
                .put("expected", expected).put("found", found));
        pins.approve("p", "read", found);
        assertThat(pins.check("p", "read")).isEmpty();
        assertThat(pins.blocked("p", "read")).isFalse();
    }

    @Test
    void anExplicitPinBlocksByDefaultAndAMissingToolIsADrift() {
        String pin = "sha256:" + "0".repeat(64);
        DeclaredTool declared = new DeclaredTool("read", 5, JsonRpc.NODES.objectNode().put("description", "Reads"), null,
                "sha256:x", pin, null);
        DefinitionPins pins = new DefinitionPins(new PinLog(null, java.time.Clock.systemUTC()));
        PodManifest pod = pod(null, declared);
        assertThat(pins.observe(pod, List.of())).isTrue();
        RpcException error = pins.check("p", "read").orElseThrow();
        assertThat(error.data().get("found").isNull()).isTrue();
        assertThat(pins.blockedTools("p")).containsExactly("read");
        DefinitionPins warnPins = new DefinitionPins(new PinLog(null, java.time.Clock.systemUTC()));
        DeclaredTool warned = new DeclaredTool("read", 5, JsonRpc.NODES.objectNode().put("description", "Reads"), null,
                "sha256:x", pin, OnDrift.WARN);
        warnPins.observe(pod(OnDrift.BLOCK, warned), List.of(tool("read", "Reads")));
        assertThat(warnPins.blocked("p", "read")).isFalse();
        assertThat(warnPins.seen(pod(OnDrift.BLOCK, warned), "read", warned).drift()).isEqualTo(OnDrift.WARN);
    }
}
