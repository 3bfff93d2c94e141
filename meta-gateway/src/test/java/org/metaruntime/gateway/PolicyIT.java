package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;

/**
 * {@code bin/meta-gateway --policy FILE --profile NAME --state DIR --audit-arguments}, driven by the TypeScript SDK
 * client over stdio with python pods that call each other: the profile hides tools from {@code tools/list} and a call
 * outside it is answered exactly like an unknown tool; a pod's call runs as its caller's principal; a tool's rate
 * limit refuses with -31001; and every call, client and nested, is one {@code gateway.call} event in the SQLite log.
 * One gateway process for the whole class.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PolicyIT {

    private static final String POLICY = """
            apiVersion: mcp-meta/v1
            kind: GatewayPolicy
            profiles:
              caller:
                tools: ["alpha__call", "alpha__echo", "beta__*", "meta__status"]
                excludeTools: ["beta__slow"]
                toolRateLimit: { rate: 2/min }
            """;

    @TempDir
    Path dir;

    private static ObjectNode call(String name, String arguments) throws Exception {
        ObjectNode step = step("call").put("name", name);
        step.set("arguments", NodeClient.JSON.readTree(arguments));
        return step;
    }

    @Test
    void profilesNestedPrincipalsRateLimitsAndTheAudit() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "alpha", "beta", "gamma");
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, POLICY);
        Path state = dir.resolve("state");
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--policy", policy.toString(),
                "--profile", "caller", "--state", state.toString(), "--audit-arguments"), List.of(
                step("listTools"),
                call("gamma__echo", "{\"text\":\"hidden\"}"),
                call("gamma__nope", "{\"text\":\"hidden\"}"),
                call("alpha__call", "{\"tool\":\"beta.meta\",\"args\":{}}"),
                call("alpha__call", "{\"tool\":\"gamma.echo\",\"args\":{\"text\":\"x\"}}"),
                call("alpha__echo", "{\"text\":\"a\",\"api_token\":\"t0ps3cret\"}"),
                call("alpha__echo", "{\"text\":\"b\"}"),
                call("alpha__echo", "{\"text\":\"c\"}")));
        NodeClient.assertAllGone(session, pids);
        JsonNode steps = session.get("steps");

        List<String> listed = new ArrayList<>();
        steps.at("/0/ok/tools").forEach(t -> listed.add(t.get("name").asText()));
        assertThat(listed).as(session.path("stderr").asText()).containsExactly("alpha__call", "alpha__echo", "beta__call",
                "beta__echo", "beta__forward", "beta__meta", "beta__relay", "beta__sample", "meta__status");

        JsonNode hidden = steps.at("/1/error");
        JsonNode unknown = steps.at("/2/error");
        assertThat(hidden.get("code").asInt()).isEqualTo(-32602);
        assertThat(hidden.get("message").asText()).endsWith("unknown tool: gamma__echo");
        assertThat(hidden.toString()).isEqualTo(unknown.toString().replace("gamma__nope", "gamma__echo"));

        JsonNode meta = steps.at("/3/ok/structuredContent/responses/0/result/structuredContent/meta");
        assertThat(meta.get("traceparent").asText()).as(steps.get(3).toString()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        JsonNode deniedNested = steps.at("/4/ok/structuredContent/responses/0/error");
        assertThat(deniedNested.get("code").asInt()).as(steps.get(4).toString()).isEqualTo(-32602);
        assertThat(deniedNested.get("message").asText()).isEqualTo("unknown tool: gamma.echo");

        assertThat(steps.at("/5/ok/content/0/text").asText()).isEqualTo("a");
        assertThat(steps.has(6) && steps.get(6).has("ok")).isTrue();
        JsonNode limited = steps.at("/7/error");
        assertThat(limited.get("code").asInt()).as(steps.get(7).toString()).isEqualTo(-31001);
        assertThat(limited.at("/data/limit").asText()).isEqualTo("tool");
        assertThat(limited.at("/data/tool").asText()).isEqualTo("alpha__echo");
        assertThat(limited.at("/data/retry_after_ms").asLong()).isBetween(1L, 60_000L);

        List<JsonNode> events = new ArrayList<>();
        List<String> modules = new ArrayList<>();
        try (EventLog log = EventLogs.persistentState(state)) {
            for (LoggedEvent row : log.query(EventQuery.builder().eventType("gateway.call").limit(1000).build()).events()) {
                UnifiedEvent.Module event = (UnifiedEvent.Module) row.envelope().event();
                modules.add(event.event().module());
                events.add(event.event().payload());
            }
        }
        assertThat(events).as("one event per call, client and nested: %s", events).hasSize(9);
        assertThat(modules).containsExactly("gamma", "meta", "beta", "alpha", "gamma", "alpha", "alpha", "alpha", "alpha");
        JsonNode denied = events.get(0);
        assertThat(denied.get("outcome").asText()).isEqualTo("denied");
        assertThat(denied.get("principal").asText()).isEqualTo("local");
        assertThat(denied.get("auth").asText()).isEqualTo("local");
        assertThat(denied.get("profile").asText()).isEqualTo("caller");
        assertThat(denied.get("error_code").asInt()).isEqualTo(-32602);
        JsonNode missing = events.get(1);
        assertThat(missing.get("outcome").asText()).isEqualTo("error");
        assertThat(missing.get("pod").isNull()).isTrue();
        assertThat(missing.get("tool").asText()).isEqualTo("gamma__nope");
        JsonNode nested = events.get(2);
        JsonNode outer = events.get(3);
        assertThat(nested.get("parent_call_id").asText()).isEqualTo(outer.get("call_id").asText());
        assertThat(nested.get("principal").asText()).isEqualTo("local");
        assertThat(nested.get("tool").asText()).isEqualTo("beta__meta");
        assertThat(nested.get("pod_tool").asText()).isEqualTo("meta");
        assertThat(nested.get("chain").toString()).isEqualTo("[\"alpha.call\",\"beta.meta\"]");
        assertThat(nested.get("trace_id").asText()).isEqualTo(outer.get("trace_id").asText()).matches("[0-9a-f]{32}");
        assertThat(meta.get("mcp-meta/call").asText()).isEqualTo(nested.get("call_id").asText());
        assertThat(outer.get("parent_call_id").isNull()).isTrue();
        assertThat(outer.get("outcome").asText()).isEqualTo("ok");
        JsonNode nestedDenied = events.get(4);
        assertThat(nestedDenied.get("outcome").asText()).isEqualTo("denied");
        assertThat(nestedDenied.get("parent_call_id").asText()).isEqualTo(events.get(5).get("call_id").asText());
        JsonNode audited = events.get(6);
        String canonical = "{\"api_token\":\"t0ps3cret\",\"text\":\"a\"}";
        assertThat(audited.get("args_sha256").asText()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(canonical.getBytes(StandardCharsets.UTF_8))));
        assertThat(audited.get("args_bytes").asLong()).isEqualTo(canonical.length());
        assertThat(audited.get("arguments").toString()).isEqualTo("{\"text\":\"a\",\"api_token\":\"[redacted]\"}");
        assertThat(audited.get("duration_ms").isIntegralNumber()).isTrue();
        assertThat(events.get(8).get("outcome").asText()).isEqualTo("rate_limited");
        assertThat(events.get(8).get("error_code").asInt()).isEqualTo(-31001);
        for (JsonNode event : events) {
            assertThat(event.fieldNames()).toIterable().contains("call_id", "parent_call_id", "principal", "auth", "profile",
                    "tool", "pod", "pod_tool", "args_sha256", "args_bytes", "outcome", "error_code", "duration_ms", "chain",
                    "trace_id", "arguments");
        }
        assertThat(Files.readString(state.resolve("event_log.sqlite3"), StandardCharsets.ISO_8859_1)).doesNotContain("t0ps3cret");
    }
}
