package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.internal.manifest.Rate;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.DefinitionCheck;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.CallOutcome;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.gateway.spi.Principal;

/** Each stage of the call pipeline, with pods that run no process. */
class CallPipelineTest {

    private static final Principal ALICE = new Principal("alice", "tokens", List.of("reader"), Map.of());
    private static final Principal BOB = new Principal("bob", "tokens", List.of("tagged"), Map.of());
    private static final Principal NOBODY = new Principal("nobody", "tokens", List.of(), Map.of());

    private static final PolicyDocument POLICY = new PolicyDocument(Map.of(
            "reader", new PolicyProfile("reader", List.of("alpha__get_*", "meta__status", "chain__*"), Set.of(),
                    List.of("alpha__get_secret"), false, null, Rate.parse("2/s", 2L).orElseThrow()),
            "tagged", new PolicyProfile("tagged", List.of(), Set.of("docs"), List.of(), true,
                    Rate.parse("1/min", null).orElseThrow(), null)),
            Optional.empty(), List.of());

    private PipelineHarness harness;

    private PipelineHarness start(PolicyDocument policy) {
        harness = new PipelineHarness(FakePods.catalog(
                FakePods.pod("alpha", Set.of(), List.of(FakePods.tool("get_item", null), FakePods.tool("get_secret", null),
                        FakePods.tool("delete", null), FakePods.tool("get_typed", schema()))),
                FakePods.pod("beta", Set.of("docs"), List.of(FakePods.tool("zeta", null), FakePods.tool("read", null))),
                FakePods.pod("chain", Set.of(), List.of(FakePods.tool("call", null)))), policy, null);
        return harness;
    }

    private static ObjectNode schema() {
        ObjectNode schema = JsonRpc.NODES.objectNode().put("type", "object");
        schema.putObject("properties").putObject("n").put("type", "integer");
        schema.putArray("required").add("n");
        return schema;
    }

    @AfterEach
    void close() {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void toolsListHoldsTheAllowedToolsSortedByCodePoint() throws Exception {
        start(POLICY);
        assertThat(harness.client(ALICE).toolNames()).containsExactly("alpha__get_item", "alpha__get_typed", "chain__call",
                "meta__status");
        assertThat(harness.client(BOB).toolNames()).containsExactly("beta__read", "beta__zeta");
        assertThat(harness.client(NOBODY).toolNames()).isEmpty();
    }

    @Test
    void resourcesAndPromptsOfPodsAPrincipalCannotSeeAreHidden() throws Exception {
        start(POLICY);
        for (String pod : List.of("alpha", "beta", "chain")) {
            harness.server.podStart(pod).get(10, TimeUnit.SECONDS);
        }
        PipelineHarness.Client alice = harness.client(ALICE);
        PipelineHarness.Client bob = harness.client(BOB);
        assertThat(uris(alice.request("resources/list", JsonRpc.NODES.objectNode())))
                .containsExactly("meta://status", "pod://alpha/r", "pod://chain/r");
        assertThat(uris(bob.request("resources/list", JsonRpc.NODES.objectNode()))).containsExactly("pod://beta/r");
        JsonNode hidden = bob.request("resources/read", JsonRpc.NODES.objectNode().put("uri", "pod://alpha/r"));
        JsonNode nowhere = bob.request("resources/read", JsonRpc.NODES.objectNode().put("uri", "pod://gamma/r"));
        assertThat(hidden.get("error").toString()).isEqualTo(nowhere.get("error").toString().replace("gamma", "alpha"));
        assertThat(bob.request("resources/read", JsonRpc.NODES.objectNode().put("uri", "meta://status")).has("error")).isTrue();
        assertThat(alice.request("resources/read", JsonRpc.NODES.objectNode().put("uri", "pod://alpha/r"))
                .at("/result/contents/0/text").asText()).isEqualTo("from alpha");
        List<String> prompts = new java.util.ArrayList<>();
        bob.request("prompts/list", JsonRpc.NODES.objectNode()).at("/result/prompts").forEach(p -> prompts.add(p.path("name").asText()));
        assertThat(prompts).containsExactly("beta__p");
        JsonNode hiddenPrompt = bob.request("prompts/get", JsonRpc.NODES.objectNode().put("name", "alpha__p"));
        JsonNode noPrompt = bob.request("prompts/get", JsonRpc.NODES.objectNode().put("name", "gamma__p"));
        assertThat(hiddenPrompt.get("error").toString()).isEqualTo(noPrompt.get("error").toString().replace("gamma", "alpha"));
    }

    private static List<String> uris(JsonNode answer) {
        List<String> uris = new java.util.ArrayList<>();
        answer.at("/result/resources").forEach(r -> uris.add(r.path("uri").asText()));
        return uris;
    }

    @Test
    void withoutAPolicyEveryToolIsListedSorted() throws Exception {
        start(PolicyDocument.ALLOW_ALL);
        assertThat(harness.client(Principals.LOCAL).toolNames()).containsExactly("alpha__delete", "alpha__get_item",
                "alpha__get_secret", "alpha__get_typed", "beta__read", "beta__zeta", "chain__call", "meta__status");
    }

    @Test
    void resolveToolAnswersAnUnknownNameWithItsName() throws Exception {
        start(POLICY);
        JsonNode answer = harness.client(ALICE).call("alpha__nope", null);
        assertThat(answer.get("error").toString()).isEqualTo(
                "{\"code\":-32602,\"message\":\"unknown tool: alpha__nope\",\"data\":{\"tool\":\"alpha__nope\"}}");
        CallRecord record = harness.record();
        assertThat(record.outcome()).isEqualTo(CallOutcome.ERROR);
        assertThat(record.pod()).isNull();
        assertThat(record.tool()).isEqualTo("alpha__nope");
        assertThat(record.errorCode()).isEqualTo(-32602);
    }

    @Test
    void authorizeAnswersADeniedCallExactlyLikeAnUnknownToolAndSpawnsNothing() throws Exception {
        start(POLICY);
        JsonNode denied = harness.client(ALICE).call("alpha__delete", null);
        JsonNode unknown = harness.client(ALICE).call("alpha__deletf", null);
        assertThat(denied.get("error").toString()).isEqualTo(unknown.get("error").toString().replace("deletf", "delete"));
        JsonNode excluded = harness.client(ALICE).call("alpha__get_secret", null);
        assertThat(excluded.at("/error/message").asText()).isEqualTo("unknown tool: alpha__get_secret");
        assertThat(harness.pods.calls).isEmpty();
        assertThat(harness.pods.starts).doesNotContainKey("alpha");
        CallRecord record = harness.record();
        assertThat(record.outcome()).isEqualTo(CallOutcome.DENIED);
        assertThat(record.profile()).isEqualTo("reader");
        assertThat(record.pod()).isEqualTo("alpha");
        assertThat(harness.client(NOBODY).call("beta__read", null).at("/error/message").asText())
                .isEqualTo("unknown tool: beta__read");
    }

    @Test
    void aTagAllowsEveryToolOfItsPods() throws Exception {
        start(POLICY);
        assertThat(harness.client(BOB).call("beta__zeta", null).at("/result/content/0/text").asText()).isEqualTo("zeta done");
        assertThat(harness.client(BOB).call("alpha__get_item", null).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void rateLimitRefusesAnEmptyBucketAndRefillsWithTheClock() throws Exception {
        start(POLICY);
        PipelineHarness.Client alice = harness.client(ALICE);
        assertThat(alice.call("alpha__get_item", null).has("result")).isTrue();
        assertThat(alice.call("alpha__get_item", null).has("result")).isTrue();
        JsonNode refused = alice.call("alpha__get_item", null).get("error");
        assertThat(refused.get("code").asInt()).isEqualTo(-31001);
        assertThat(refused.get("message").asText()).isEqualTo("rate limit exceeded: principal alice, tool alpha__get_item");
        assertThat(refused.at("/data/limit").asText()).isEqualTo("tool");
        assertThat(refused.at("/data/tool").asText()).isEqualTo("alpha__get_item");
        long retry = refused.at("/data/retry_after_ms").asLong();
        assertThat(retry).isBetween(1L, 500L);
        assertThat(alice.call("alpha__get_typed", JsonRpc.NODES.objectNode().put("n", 1)).has("result"))
                .as("another tool has its own bucket").isTrue();
        assertThat(alice.call("alpha__delete", null).at("/error/code").asInt()).as("denied before limited").isEqualTo(-32602);
        harness.nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(retry));
        assertThat(alice.call("alpha__get_item", null).has("result")).isTrue();
        assertThat(harness.pods.calls).hasSize(4);
    }

    @Test
    void rateLimitPerPrincipalNamesItsLimit() throws Exception {
        start(POLICY);
        PipelineHarness.Client bob = harness.client(BOB);
        assertThat(bob.call("beta__read", null).has("result")).isTrue();
        JsonNode refused = bob.call("beta__zeta", null).get("error");
        assertThat(refused.at("/data/limit").asText()).isEqualTo("principal");
        assertThat(refused.at("/data/retry_after_ms").asLong()).isBetween(59_000L, 60_000L);
    }

    @Test
    void validateArgumentsRefusesWhatTheSchemaRejectsBeforeThePod() throws Exception {
        start(POLICY);
        JsonNode invalid = harness.client(ALICE).call("alpha__get_typed", JsonRpc.NODES.objectNode().put("n", "x"));
        assertThat(invalid.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(invalid.at("/error/data/violations").asText()).isNotEmpty();
        assertThat(harness.client(ALICE).call("alpha__get_typed", JsonRpc.NODES.arrayNode()).at("/error/message").asText())
                .contains("arguments must be an object");
        assertThat(harness.pods.calls).isEmpty();
    }

    @Test
    void checkStopsABlockedDefinitionAndDispatchStampsTheTrace() throws Exception {
        DefinitionCheck blocked = (pod, tool) -> tool.equals("get_item")
                ? Optional.of(new RpcException(-31002, "pod alpha tool get_item: definition changed")) : Optional.empty();
        harness = new PipelineHarness(FakePods.catalog(FakePods.pod("alpha", Set.of(), List.of(FakePods.tool("get_item", null),
                FakePods.tool("other", null)))), CallSettings.defaults().withDefinitions(blocked));
        PipelineHarness.Client client = harness.client(Principals.LOCAL);
        assertThat(client.call("alpha__get_item", null).at("/error/code").asInt()).isEqualTo(-31002);
        assertThat(harness.pods.calls).isEmpty();
        assertThat(client.call("alpha__other", null).has("result")).isTrue();
        assertThat(harness.pods.calls.get(0).context().scope().span().traceId()).matches("[0-9a-f]{32}");
    }

    @Test
    void metaStatusGoesThroughThePipeline() throws Exception {
        start(POLICY);
        assertThat(harness.client(ALICE).call("meta__status", null).at("/result/structuredContent/pods").isObject()).isTrue();
        CallRecord record = harness.record();
        assertThat(record.pod()).isEqualTo("meta");
        assertThat(record.podTool()).isEqualTo("status");
        assertThat(harness.client(BOB).call("meta__status", null).at("/error/message").asText())
                .isEqualTo("unknown tool: meta__status");
    }

    @Test
    void recordCarriesTheCallAfterItsAnswerAndAThrowingListenerIsHarmless() throws Exception {
        harness = new PipelineHarness(FakePods.catalog(FakePods.pod("alpha", Set.of(), List.of(FakePods.tool("get_item", null)))),
                CallSettings.defaults().withListeners(List.of(r -> {
                    throw new IllegalStateException("listener down");
                }, r -> records().add(r)), true));
        JsonNode args = JsonRpc.NODES.objectNode().put("b", 1).put("a", "x").put("api-key", "s3cret");
        assertThat(harness.client(Principals.LOCAL).call("alpha__get_item", args).has("result")).isTrue();
        CallRecord record = harness.record();
        assertThat(record.outcome()).isEqualTo(CallOutcome.OK);
        assertThat(record.principal()).isEqualTo(Principals.LOCAL);
        assertThat(record.profile()).isEqualTo("all");
        assertThat(record.tool()).isEqualTo("alpha__get_item");
        assertThat(record.chain()).containsExactly("alpha.get_item");
        assertThat(record.argsBytes()).isEqualTo("{\"a\":\"x\",\"api-key\":\"s3cret\",\"b\":1}".length());
        assertThat(record.argsSha256()).isEqualTo(sha256("{\"a\":\"x\",\"api-key\":\"s3cret\",\"b\":1}"));
        assertThat(record.arguments().toString()).isEqualTo("{\"b\":1,\"a\":\"x\",\"api-key\":\"[redacted]\"}");
        assertThat(record.callId()).isEqualTo(harness.pods.calls.get(0).context().callId());
        assertThat(record.parentCallId()).isNull();
        assertThat(record.traceId()).matches("[0-9a-f]{32}");
    }

    private java.util.concurrent.BlockingQueue<CallRecord> records() {
        return harness.records;
    }

    @Test
    void aNestedCallRunsAsItsOuterCallsPrincipal() throws Exception {
        start(POLICY);
        harness.pods.answer("chain", (got, pods) -> {
            ObjectNode params = JsonRpc.NODES.objectNode().put("tool", got.arguments().path("target").asText());
            return pods.nested("chain", params).handle((r, e) -> e == null ? r : FakePods.text("nested failed: "
                    + (e.getCause() == null ? e : e.getCause()).getMessage()));
        });
        JsonNode allowed = harness.client(ALICE).call("chain__call", JsonRpc.NODES.objectNode().put("target", "alpha.get_item"));
        assertThat(allowed.at("/result/content/0/text").asText()).isEqualTo("get_item done");
        JsonNode denied = harness.client(ALICE).call("chain__call", JsonRpc.NODES.objectNode().put("target", "alpha.delete"));
        assertThat(denied.at("/result/content/0/text").asText()).isEqualTo("nested failed: unknown tool: alpha.delete");
        List<CallRecord> records = List.of(harness.record(), harness.record(), harness.record(), harness.record());
        CallRecord nested = records.stream().filter(r -> r.parentCallId() != null && r.outcome() == CallOutcome.OK).findFirst()
                .orElseThrow();
        assertThat(nested.principal()).isEqualTo(ALICE);
        assertThat(nested.tool()).isEqualTo("alpha__get_item");
        assertThat(nested.chain()).containsExactly("chain.call", "alpha.get_item");
        CallRecord outer = records.stream().filter(r -> r.callId().equals(nested.parentCallId())).findFirst().orElseThrow();
        assertThat(outer.traceId()).isEqualTo(nested.traceId());
        assertThat(records.stream().filter(r -> r.outcome() == CallOutcome.DENIED).findFirst().orElseThrow().tool())
                .isEqualTo("alpha__delete");
    }

    @Test
    void aPodsCallOfNoCallRunsAsThePodWithTheDefaultProfile() throws Exception {
        start(new PolicyDocument(POLICY.profiles(), Optional.of("tagged"), List.of()));
        assertThat(harness.client(ALICE).call("chain__call", null).has("result")).isTrue();
        assertThat(harness.record().principal()).isEqualTo(ALICE);
        JsonNode viaDefault = harness.pods.nested("chain", JsonRpc.NODES.objectNode().put("tool", "beta.read"))
                .get(10, TimeUnit.SECONDS);
        assertThat(viaDefault.at("/content/0/text").asText()).isEqualTo("read done");
        CallRecord record = harness.record();
        assertThat(record.principal().name()).isEqualTo("pod:chain");
        assertThat(record.principal().auth()).isEqualTo("pod");
        assertThat(record.profile()).isEqualTo("tagged");
    }

    @Test
    void aPodsCallAmbiguousBetweenPrincipalsIsDenied() throws Exception {
        start(POLICY);
        CompletableFuture<JsonNode> release = new CompletableFuture<>();
        CompletableFuture<JsonNode> nestedAnswer = new CompletableFuture<>();
        harness.pods.answer("chain", (got, pods) -> {
            if (got.arguments().path("ask").asBoolean()) {
                pods.nested("chain", JsonRpc.NODES.objectNode().put("tool", "alpha.get_item"))
                        .whenComplete((r, e) -> nestedAnswer.complete(e == null ? r : JsonRpc.NODES.textNode(
                                (e.getCause() == null ? e : e.getCause()).getMessage())));
            }
            return release;
        });
        Principal carol = new Principal("carol", "tokens", List.of("reader"), Map.of());
        CompletableFuture<JsonNode> first = CompletableFuture.supplyAsync(() -> call(harness.client(ALICE), "{}"));
        while (harness.pods.calls.isEmpty()) {
            Thread.onSpinWait();
        }
        CompletableFuture<JsonNode> second = CompletableFuture.supplyAsync(() -> call(harness.client(carol), "{\"ask\":true}"));
        assertThat(nestedAnswer.get(10, TimeUnit.SECONDS).asText()).isEqualTo("unknown tool: alpha.get_item");
        release.complete(FakePods.text("released"));
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);
    }

    private static JsonNode call(PipelineHarness.Client client, String arguments) {
        try {
            return client.call("chain__call", JsonRpc.MAPPER.readTree(arguments));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void accessMapsClaimsAndLocalProfile() {
        PolicyDocument policy = new PolicyDocument(POLICY.profiles(), Optional.of("tagged"), List.of(
                new org.metaruntime.gateway.internal.manifest.ClaimRule("groups", "admins", null, List.of("reader")),
                new org.metaruntime.gateway.internal.manifest.ClaimRule("scope", "tools:x", null, List.of("tagged", "reader")),
                new org.metaruntime.gateway.internal.manifest.ClaimRule("sub", null, "svc", List.of("tagged"))));
        Access access = new Access(policy, "reader");
        assertThat(access.profilesOf(new Principal("u", "oauth", List.of(), Map.of("groups", List.of("admins"),
                "scope", "a tools:x")))).containsExactly("reader", "tagged");
        assertThat(access.profilesOf(new Principal("svc", "oauth", List.of(), Map.of("sub", "svc")))).containsExactly("tagged");
        assertThat(access.profilesOf(new Principal("z", "oauth", List.of(), Map.of()))).containsExactly("tagged");
        assertThat(access.profilesOf(Principals.LOCAL)).containsExactly("reader");
        assertThat(access.admin(BOB)).isTrue();
        assertThat(access.admin(ALICE)).isFalse();
        assertThat(access.admin(Principals.TOKEN)).isTrue();
        assertThat(Access.ALL.profilesOf(NOBODY)).containsExactly("all");
    }

    @Test
    void recordNamesTimeoutsErrorsAndToolErrors() throws Exception {
        start(POLICY);
        harness.pods.answer("alpha", (got, pods) -> switch (got.tool()) {
            case "get_item" -> CompletableFuture.failedFuture(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.TIMEOUT,
                    "late", java.util.OptionalInt.empty(), ""));
            case "get_typed" -> CompletableFuture.failedFuture(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.ERROR_ANSWER,
                    "no", java.util.OptionalInt.empty(), "", -32000, null));
            default -> {
                ObjectNode result = (ObjectNode) FakePods.text("bad");
                result.put("isError", true);
                yield CompletableFuture.completedFuture(result);
            }
        });
        PipelineHarness.Client alice = harness.client(ALICE);
        assertThat(alice.call("alpha__get_item", null).at("/error/code").asInt()).isEqualTo(-32001);
        CallRecord timeout = harness.record();
        assertThat(timeout.outcome()).isEqualTo(CallOutcome.TIMEOUT);
        assertThat(timeout.errorCode()).isEqualTo(-32001);
        assertThat(alice.call("alpha__get_typed", JsonRpc.NODES.objectNode().put("n", 1)).at("/error/code").asInt()).isEqualTo(-32000);
        CallRecord error = harness.record();
        assertThat(error.outcome()).isEqualTo(CallOutcome.ERROR);
        assertThat(error.errorCode()).isEqualTo(-32000);
        PipelineHarness.Client bob = harness.client(BOB);
        harness.pods.answer("beta", (got, pods) -> {
            ObjectNode result = (ObjectNode) FakePods.text("bad");
            result.put("isError", true);
            return CompletableFuture.completedFuture(result);
        });
        assertThat(bob.call("beta__read", null).at("/result/isError").asBoolean()).isTrue();
        CallRecord toolError = harness.record();
        assertThat(toolError.outcome()).isEqualTo(CallOutcome.ERROR);
        assertThat(toolError.errorCode()).isNull();
    }

    @Test
    void aCallTheClientCancelsIsRecordedCancelled() throws Exception {
        start(POLICY);
        harness.pods.answer("alpha", (got, pods) -> new CompletableFuture<>());
        PipelineHarness.Client alice = harness.client(ALICE);
        CompletableFuture<JsonNode> pending = CompletableFuture.supplyAsync(() -> {
            try {
                return alice.call("alpha__get_item", null);
            } catch (Exception e) {
                return null;
            }
        });
        while (harness.pods.calls.isEmpty()) {
            Thread.onSpinWait();
        }
        alice.notify("notifications/cancelled", JsonRpc.NODES.objectNode().put("requestId", alice.lastId()));
        CallRecord record = harness.record();
        assertThat(record.outcome()).isEqualTo(CallOutcome.CANCELLED);
        assertThat(record.errorCode()).isNull();
        pending.cancel(true);
    }

    @Test
    void durationsComeFromTheInjectedClock() throws Exception {
        start(POLICY);
        harness.pods.answer("alpha", (got, pods) -> {
            harness.nanos.addAndGet(Duration.ofMillis(1500).toNanos());
            return CompletableFuture.completedFuture(FakePods.text("slow"));
        });
        harness.client(ALICE).call("alpha__get_item", null);
        assertThat(harness.record().durationMs()).isEqualTo(1500);
    }
}
