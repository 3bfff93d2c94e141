package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.contract.CanonicalJson;

/**
 * Pods calling each other through a real gateway process ({@code __mcp_meta_call__}), driven by the TypeScript SDK
 * client: python pods (alpha, beta, gamma; delta with a 4 s call timeout) whose {@code call}/{@code relay}/{@code forward}
 * tools call any tool and return the answers they got. Cycles, depth, contracts, deadlines and cancellation. The
 * scenarios on the default command line share one session ({@link SharedSession}), each reading back its own steps
 * and the counters it changed.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodToPodIT {

    private static final String ECHO_SCHEMA = "{\"type\":\"object\",\"required\":[\"text\"],\"properties\":{\"text\":{\"type\":\"string\"}}}";

    /** The folder of the shared session: its manifests, pid files and the pods' record. */
    @TempDir
    static Path shared;
    private final SharedSession pods = new SharedSession();

    /** The transport the client uses; {@link PodToPodHttpIT} runs every scenario over Streamable HTTP. */
    NodeClient.Transport transport() {
        return NodeClient.Transport.STDIO;
    }

    @BeforeAll
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void runTheSharedSession() throws Exception {
        pods.part("fanOut", fanOutSteps())
                .part("cycles", cycleSteps())
                .part("depth", List.of(via("alpha__call", DEEP[0], deepArgs())))
                .part("contracts", contractSteps())
                .part("cancel", cancelSteps(shared));
        pods.ran(session(shared, pods.steps()));
    }

    private JsonNode session(Path dir, List<ObjectNode> steps, String... options) throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "alpha", "beta", "gamma", "delta");
        List<String> args = new ArrayList<>(List.of("--manifests", manifests.toString()));
        args.addAll(List.of(options));
        JsonNode session = NodeClient.session(transport(), args, steps);
        NodeClient.assertAllGone(session, pids);
        return session;
    }

    private static long served(JsonNode status, String pod) {
        return status.at("/structuredContent/pods/" + pod + "/callsServed").asLong();
    }

    /** {@code outward} called with {"tool": target, "args": args, ...extra}. */
    private static ObjectNode via(String outward, String target, ObjectNode args) {
        ObjectNode step = step("call").put("name", outward);
        ObjectNode arguments = step.putObject("arguments").put("tool", target);
        arguments.set("args", args == null ? NodeClient.JSON.createObjectNode() : args);
        return step;
    }

    private static ObjectNode nested(String target, ObjectNode args) {
        ObjectNode a = NodeClient.JSON.createObjectNode().put("tool", target);
        a.set("args", args == null ? NodeClient.JSON.createObjectNode() : args);
        return a;
    }

    private static ObjectNode text(String text) {
        return NodeClient.JSON.createObjectNode().put("text", text);
    }

    private static JsonNode ok(JsonNode session, int step) {
        JsonNode s = session.get("steps").get(step);
        assertThat(s.has("ok")).as("step %d: %s (gateway stderr: %s)", step, s, session.path("stderr").asText()).isTrue();
        return s.get("ok");
    }

    /** The answer the calling pod got for its (first) request, {@code levels} pods down. */
    private static JsonNode answer(JsonNode result, int levels) {
        JsonNode at = result;
        for (int i = 0; i < levels; i++) {
            if (i > 0) {
                at = at.get("result");
            }
            assertThat(at.at("/structuredContent/responses").isArray()).as("level %d: %s", i, at).isTrue();
            at = at.at("/structuredContent/responses/0");
        }
        return at;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<ObjectNode> fanOutSteps() {
        ObjectNode same = via("alpha__call", "beta.echo", text("日本語 🎉"));
        same.with("arguments").put("ids", "same");
        ObjectNode many = via("alpha__call", "beta.echo", text("many"));
        many.with("arguments").put("count", 8).put("ids", "small");
        ObjectNode sample = via("alpha__call", "beta.sample", NodeClient.JSON.createObjectNode().put("prompt", "two pods deep"));
        return List.of(same, via("alpha__call", "beta.meta", null), many, sample, NodeClient.call("meta__status", "{}"));
    }

    @Test
    void aPodCallsAnotherPodsToolSeveralAtOnceUnderItsOwnIdsWithTheChainInMeta() throws Exception {
        JsonNode session = pods.of("fanOut");
        JsonNode echoed = answer(ok(session, 0), 1);
        assertThat(echoed.at("/result/structuredContent/echo").asText()).as(echoed.toString()).isEqualTo("日本語 🎉");
        assertThat(echoed.at("/result/content/0/text").asText()).isEqualTo("日本語 🎉");
        JsonNode meta = answer(ok(session, 1), 1).at("/result/structuredContent/meta");
        assertThat(strings(meta.get("mcp-meta/chain"))).containsExactly("alpha.call", "beta.meta");
        assertThat(meta.get("mcp-meta/call").asText()).isNotEmpty();
        JsonNode responses = ok(session, 2).at("/structuredContent/responses");
        assertThat(responses).hasSize(8);
        responses.forEach(r -> assertThat(r.at("/result/structuredContent/echo").asText()).as(r.toString()).isEqualTo("many"));
        JsonNode sampled = answer(ok(session, 3), 1);
        assertThat(sampled.at("/result/content/0/text").asText()).as("a nested pod's sampling reaches the client: %s", sampled)
                .isEqualTo("sampled: two pods deep");
        assertThat(session.get("sampled").asInt()).as("sampling requests in the whole session").isEqualTo(1);
        JsonNode status = ok(session, 4);
        assertThat(served(status, "beta")).as("the session's first calls").isEqualTo(11);
        assertThat(served(status, "alpha")).isEqualTo(4);
    }

    private static List<ObjectNode> cycleSteps() {
        ObjectNode unforwarded = via("alpha__call", "beta.call", nested("alpha.call", null).put("forward_chain", false));
        unforwarded.with("arguments").put("forward_chain", false);
        return List.of(
                via("alpha__call", "alpha.call", null),
                via("alpha__call", "beta.call", nested("alpha.call", null)),
                via("alpha__call", "beta.call", nested("gamma.call", nested("alpha.call", null))),
                unforwarded,
                via("alpha__call", "beta.call", nested("gamma.call", nested("alpha.echo", text("no cycle")))));
    }

    @Test
    void cyclesFailWithTheChainWhetherOrNotPodsForwardIt() throws Exception {
        JsonNode session = pods.of("cycles");
        JsonNode self = answer(ok(session, 0), 1).get("error");
        assertThat(self.get("code").asInt()).as(self.toString()).isEqualTo(-32004);
        assertThat(strings(self.at("/data/chain"))).containsExactly("alpha.call", "alpha.call");
        assertThat(self.get("message").asText()).contains("pod alpha tool call: call cycle: alpha.call -> alpha.call");
        JsonNode two = answer(ok(session, 1), 2).get("error");
        assertThat(two.get("code").asInt()).as(two.toString()).isEqualTo(-32004);
        assertThat(strings(two.at("/data/chain"))).containsExactly("alpha.call", "beta.call", "alpha.call");
        JsonNode three = answer(ok(session, 2), 3).get("error");
        assertThat(three.get("code").asInt()).as(three.toString()).isEqualTo(-32004);
        assertThat(strings(three.at("/data/chain"))).containsExactly("alpha.call", "beta.call", "gamma.call", "alpha.call");
        JsonNode fallback = answer(ok(session, 3), 2).get("error");
        assertThat(fallback.get("code").asInt()).as("the chain of the pod's only call in flight: %s", fallback).isEqualTo(-32004);
        assertThat(strings(fallback.at("/data/chain"))).containsExactly("alpha.call", "beta.call", "alpha.call");
        assertThat(answer(ok(session, 4), 3).at("/result/structuredContent/echo").asText()).isEqualTo("no cycle");
    }

    private static final String[] DEEP = {"beta.call", "gamma.call", "alpha.relay", "beta.relay", "gamma.relay",
            "alpha.forward", "beta.forward", "gamma.forward"};

    /** The arguments of a chain through every target of {@link #DEEP}, nine calls deep with the client's. */
    private static ObjectNode deepArgs() {
        ObjectNode args = null;
        for (int i = DEEP.length - 1; i >= 1; i--) {
            args = nested(DEEP[i], args);
        }
        return args;
    }

    @Test
    void aChainLongerThanTheMaximumDepthFails() throws Exception {
        JsonNode deepest = answer(ok(pods.of("depth"), 0), 8).get("error");
        assertThat(deepest.get("code").asInt()).as(deepest.toString()).isEqualTo(-32004);
        assertThat(deepest.at("/data/chain")).hasSize(9);
        assertThat(deepest.at("/data/maxDepth").asInt()).isEqualTo(8);
        assertThat(deepest.get("message").asText()).contains("more than the maximum of 8");
    }

    @Test
    void theMaximumDepthIsSetOnTheCommandLine(@TempDir Path dir) throws Exception {
        JsonNode session = session(dir, List.of(via("alpha__call", "beta.echo", text("two deep")),
                via("alpha__call", "beta.call", nested("gamma.echo", text("three deep")))), "--max-call-depth", "2");
        assertThat(answer(ok(session, 0), 1).at("/result/structuredContent/echo").asText()).isEqualTo("two deep");
        JsonNode refused = answer(ok(session, 1), 2).get("error");
        assertThat(refused.get("code").asInt()).as(refused.toString()).isEqualTo(-32004);
        assertThat(refused.at("/data/maxDepth").asInt()).isEqualTo(2);
    }

    private static List<ObjectNode> contractSteps() {
        String hash = schemaHash();
        return List.of(
                NodeClient.call("meta__status", "{}"),
                expecting("fixture.echo", "^1.2.0 || ^2", hash),
                expecting("other.echo", null, null),
                expecting(null, "<1.4.2", null),
                expecting(null, ">=1.4.2-rc.1 <1.5.0", "sha256:" + "0".repeat(64)),
                expecting(null, "~1.4", null),
                NodeClient.call("meta__status", "{}"));
    }

    private static String schemaHash() {
        try {
            return CanonicalJson.schemaHash(NodeClient.JSON.readTree(ECHO_SCHEMA));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void contractsAreCheckedBeforeTheTargetIsCalled() throws Exception {
        String hash = schemaHash();
        JsonNode session = pods.of("contracts");
        long servedBefore = served(ok(session, 0), "beta");
        assertThat(answer(ok(session, 1), 1).at("/result/structuredContent/echo").asText()).isEqualTo("contract");
        JsonNode id = answer(ok(session, 2), 1).get("error");
        assertThat(id.get("code").asInt()).as(id.toString()).isEqualTo(-32005);
        assertThat(id.at("/data/expected/id").asText()).isEqualTo("other.echo");
        assertThat(id.at("/data/found/id").asText()).isEqualTo("fixture.echo");
        assertThat(id.get("message").asText()).contains("pod beta tool echo: contract mismatch (id)");
        JsonNode version = answer(ok(session, 3), 1).get("error");
        assertThat(version.get("code").asInt()).isEqualTo(-32005);
        assertThat(version.at("/data/expected/version").asText()).isEqualTo("<1.4.2");
        assertThat(version.at("/data/found/version").asText()).isEqualTo("1.4.2");
        JsonNode schema = answer(ok(session, 4), 1).get("error");
        assertThat(schema.get("code").asInt()).isEqualTo(-32005);
        assertThat(strings(schema.at("/data/mismatch"))).containsExactly("schema_hash");
        assertThat(schema.at("/data/found/schema_hash").asText()).isEqualTo(hash);
        assertThat(answer(ok(session, 5), 1).at("/result/structuredContent/echo").asText()).isEqualTo("contract");
        JsonNode status = ok(session, 6);
        assertThat(served(status, "beta") - servedBefore).as("mismatched calls never reach the target").isEqualTo(2);
        JsonNode echoTool = null;
        for (JsonNode tool : status.at("/structuredContent/pods/beta/tools")) {
            if (tool.get("name").asText().equals("echo")) {
                echoTool = tool;
            }
        }
        assertThat(echoTool).isNotNull();
        assertThat(echoTool.get("schemaHash").asText()).isEqualTo(hash);
        assertThat(echoTool.at("/contract/version").asText()).isEqualTo("1.4.2");
    }

    private static ObjectNode expecting(String id, String version, String hash) {
        ObjectNode step = via("alpha__call", "beta.echo", text("contract"));
        ObjectNode expect = step.with("arguments").putObject("expect");
        if (id != null) {
            expect.put("id", id);
        }
        if (version != null) {
            expect.put("version", version);
        }
        if (hash != null) {
            expect.put("schema_hash", hash);
        }
        return step;
    }

    private static List<ObjectNode> cancelSteps(Path dir) {
        ObjectNode cancelled = via("alpha__call", "beta.slow", NodeClient.JSON.createObjectNode().put("seconds", 20).put("steps", 40))
                .put("cancelAfterMs", 1500);
        ObjectNode bounded = via("delta__call", "gamma.slow", NodeClient.JSON.createObjectNode().put("seconds", 25).put("steps", 50));
        List<ObjectNode> steps = new ArrayList<>();
        for (String pod : List.of("alpha", "beta", "gamma", "delta")) {
            steps.add(NodeClient.call(pod + "__echo", "{\"text\": \"started\"}")); // running before the timed steps
        }
        steps.addAll(List.of(cancelled, bounded, step("waitLines").put("path", dir.resolve("record.txt").toString())
                .put("prefix", "cancelled ").put("count", 2)));
        return steps;
    }

    @Test
    void cancellingTheOuterCallOrItsDeadlineEndsTheNestedOne() throws Exception {
        JsonNode session = pods.of("cancel");
        for (int i = 0; i < 4; i++) {
            assertThat(ok(session, i).at("/structuredContent/echo").asText()).isEqualTo("started");
        }
        assertThat(session.at("/steps/4/error").isObject()).as(session.get("steps").get(4).toString()).isTrue();
        // gamma's own bound is 60 s; delta's call has 4 s: the nested call ends with delta's time, whichever of the
        // two answers is first (delta's own time out, or the nested call's, which delta passes on)
        JsonNode bound = session.get("steps").get(5);
        if (bound.has("error")) {
            assertThat(bound.at("/error/code").asInt()).as(bound.toString()).isEqualTo(-32001);
            assertThat(bound.at("/error/message").asText()).contains("pod delta tool call: the call timed out after 4000 ms");
        } else {
            JsonNode nested = answer(bound.get("ok"), 1).get("error");
            assertThat(nested.get("code").asInt()).as(nested.toString()).isEqualTo(-32001);
            assertThat(nested.at("/data/timeoutMs").asLong()).isLessThanOrEqualTo(4000);
        }
        assertThat(ok(session, 6)).as("beta's and gamma's slow calls were cancelled").hasSize(2);
        assertThat(NodeClient.recorded(shared)).as("cancellations in the whole session")
                .filteredOn(line -> line.startsWith("cancelled ")).hasSize(2);
    }
}
