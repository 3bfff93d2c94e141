package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/** The tasks extension a client declared reaches a modern pod only when the pod is task-capable. */
class ModernPodsTest {

    private static ObjectNode declaring() {
        ObjectNode meta = JsonRpc.NODES.objectNode();
        ObjectNode capabilities = meta.putObject(Eras.CLIENT_CAPABILITIES_KEY);
        capabilities.putObject("elicitation");
        capabilities.putObject("extensions").putObject(TaskRequests.EXTENSION);
        return meta;
    }

    @Test
    void aTaskCapablePodGetsTheExtensionAnotherPodDoesNot() {
        ObjectNode meta = declaring();
        assertThat(ModernPods.podMeta(meta, true)).isSameAs(meta);
        ObjectNode stripped = ModernPods.podMeta(meta, false);
        assertThat(stripped.get(Eras.CLIENT_CAPABILITIES_KEY).toString()).isEqualTo("{\"elicitation\":{}}");
        assertThat(meta.get(Eras.CLIENT_CAPABILITIES_KEY).has("extensions")).as("the client's meta is kept").isTrue();
    }

    @Test
    void theGatewaysOwnCallsDeclareNothing() {
        assertThat(ModernPods.podMeta(null, true).get(Eras.CLIENT_CAPABILITIES_KEY).toString()).isEqualTo("{}");
    }
}
