package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/** The {@code requestState} of bridged calls: what it binds, and each way it is refused (-32602), on a set clock. */
class RequestStatesTest {

    private static final Instant NOW = Instant.parse("2026-12-03T23:00:00Z");

    private final MutableClock clock = new MutableClock();
    private final RequestStates states = new RequestStates(new SecureRandom(), clock);

    private static final class MutableClock extends Clock {
        Instant now = NOW;

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private RequestStates.Claims claims(String inner) {
        return new RequestStates.Claims("c7", 2, "pod__tool", RequestStates.digest(JsonRpc.NODES.objectNode().put("a", 1)),
                "5:local:local", NOW.toEpochMilli() + 10_000, inner);
    }

    private static void assertRefused(ThrowingOpen open, String message) {
        assertThatThrownBy(open::run).isInstanceOfSatisfying(RpcException.class, e -> {
            assertThat(e.code()).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @FunctionalInterface
    private interface ThrowingOpen {
        void run();
    }

    @Test
    void aSealedStateOpensToItsClaimsAndCanWrapAnInnerState() {
        RequestStates.Claims claims = claims(null);
        assertThat(states.open(TextNode.valueOf(states.seal(claims)))).isEqualTo(claims);
        RequestStates.Claims wrapping = claims("the pod's own \"state\" ✓");
        assertThat(states.open(TextNode.valueOf(states.seal(wrapping)))).isEqualTo(wrapping);
    }

    @Test
    void anAlteredStateIsRefused() {
        String state = states.seal(claims(null));
        int dot = state.indexOf('.');
        String payload = new String(Base64.getUrlDecoder().decode(state.substring(0, dot)), StandardCharsets.UTF_8);
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.replace("\"round\":2", "\"round\":3")
                .getBytes(StandardCharsets.UTF_8)) + state.substring(dot);
        assertRefused(() -> states.open(TextNode.valueOf(forged)), "altered");
        String otherMac = state.substring(0, dot + 1) + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);
        assertRefused(() -> states.open(TextNode.valueOf(otherMac)), "altered");
        assertRefused(() -> states.open(TextNode.valueOf(state.substring(0, dot))), "not a state");
        assertRefused(() -> states.open(TextNode.valueOf("%%%." + state.substring(dot + 1))), "not a state");
        assertRefused(() -> states.open(JsonRpc.NODES.numberNode(7)), "not a state");
        assertRefused(() -> states.open(null), "not a state");
        assertRefused(() -> states.open(TextNode.valueOf("x".repeat(RequestStates.MAX_LENGTH + 1))), "not a state");
    }

    @Test
    void aStateOfAnotherGatewayProcessIsRefused() {
        RequestStates other = new RequestStates(new SecureRandom(), clock);
        String state = other.seal(claims(null));
        assertRefused(() -> states.open(TextNode.valueOf(state)), "another gateway process");
    }

    @Test
    void aStateExpiresAtItsExpiry() {
        JsonNode state = TextNode.valueOf(states.seal(claims(null)));
        clock.now = NOW.plusMillis(9_999);
        assertThat(states.open(state).call()).isEqualTo("c7");
        clock.now = NOW.plusMillis(10_000);
        assertRefused(() -> states.open(state), "expired");
    }

    @Test
    void theArgumentsDigestIsThatOfTheirCanonicalForm() throws Exception {
        JsonNode a = JsonRpc.MAPPER.readTree("{\"b\":[1.0,\"é\",{\"y\":1,\"x\":2}],\"a\":1e2}");
        JsonNode b = JsonRpc.MAPPER.readTree("{\"a\":100,\"b\":[1,\"\\u00e9\",{\"x\":2,\"y\":1}]}");
        assertThat(RequestStates.digest(a)).isEqualTo(RequestStates.digest(b));
        assertThat(RequestStates.digest(a)).isNotEqualTo(RequestStates.digest(JsonRpc.MAPPER.readTree("{\"a\":101,\"b\":[]}")));
    }

    @Test
    void inAClusterEveryReplicaOpensTheStateAndReadsItsOwnerButNoOtherKeyDoes() {
        byte[] shared = "a key derived from the cluster key".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        RequestStates a = new RequestStates(new SecureRandom(), clock);
        RequestStates b = new RequestStates(new SecureRandom(), clock);
        a.cluster("r-00000000000a", shared);
        b.cluster("r-00000000000b", shared);
        String state = a.seal(claims(null));
        assertThat(b.ownerOf(JsonRpc.NODES.textNode(state))).contains("r-00000000000a");
        assertThat(b.open(JsonRpc.NODES.textNode(state))).isEqualTo(claims(null));
        assertThat(a.owner()).isEqualTo("r-00000000000a");
        String altered = state.substring(0, state.indexOf('.')) + ".AAAA";
        assertThat(b.ownerOf(JsonRpc.NODES.textNode(altered))).isEmpty();
        RequestStates other = new RequestStates(new SecureRandom(), clock);
        other.cluster("r-00000000000c", "another cluster's derived key".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(other.ownerOf(JsonRpc.NODES.textNode(state))).isEmpty();
        assertThat(states.ownerOf(JsonRpc.NODES.textNode(states.seal(claims(null))))).isEmpty();
    }
}
