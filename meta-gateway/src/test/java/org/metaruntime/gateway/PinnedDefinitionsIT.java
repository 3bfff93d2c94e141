package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.testing.LeakCheck;

/**
 * Pinned tool definitions through {@code bin/meta-gateway --state DIR} with the TypeScript SDK client: a real Python
 * pod whose tool description changes between starts is pinned on first use, its pin is read back from the SQLite event
 * log after a restart, its drift is blocked or warned of by {@code onDrift}, and {@code --approve} takes the new
 * definition as its pin.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PinnedDefinitionsIT {

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private Path manifests;
    private Path description;
    private Path state;

    private void manifest(String onDrift) throws Exception {
        manifests = NodeClient.pinnedPod(Files.createDirectories(dir.resolve("manifests")), description, "",
                onDrift == null ? List.of() : List.of("onDrift: " + onDrift), List.of());
    }

    private JsonNode run() throws Exception {
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--state", state.toString()),
                List.of(NodeClient.step("listTools"), NodeClient.call("meta__status", "{}"), NodeClient.call("pinned__read", "{}")));
        assertThat(session.at("/steps/0/ok")).as(session.toString()).isNotNull();
        return session;
    }

    private static List<String> listed(JsonNode session) {
        List<String> names = new ArrayList<>();
        session.at("/steps/0/ok/tools").forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    private static JsonNode tool(JsonNode session, String name) {
        for (JsonNode tool : session.at("/steps/1/ok/structuredContent/pods/pinned/tools")) {
            if (tool.get("name").asText().equals(name)) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name + " in the status: " + session.at("/steps/1"));
    }

    private List<JsonNode> events(String type) {
        try (EventLog log = EventLogs.persistentState(state)) {
            List<JsonNode> payloads = new ArrayList<>();
            for (LoggedEvent row : log.query(EventQuery.builder().eventType(type).limit(1000).build()).events()) {
                payloads.add(((UnifiedEvent.Module) row.envelope().event()).event().payload());
            }
            return payloads;
        }
    }

    @Test
    void aChangedDescriptionIsBlockedOrWarnedOfAfterARestartUntilApproved() throws Exception {
        state = dir.resolve("state");
        description = Files.writeString(dir.resolve("description.txt"), "Reads a file");
        manifest(null);

        JsonNode first = run();
        assertThat(listed(first)).contains("pinned__read", "pinned__stable");
        JsonNode read = tool(first, "read");
        String pinned = read.get("definitionHash").asText();
        assertThat(pinned).matches("sha256:[0-9a-f]{64}");
        assertThat(read.get("pin").asText()).isEqualTo(pinned);
        assertThat(read.get("drift").isNull()).isTrue();
        assertThat(first.at("/steps/2/ok/content/0/text").isTextual()).as(first.toString()).isTrue();
        assertThat(events("gateway.tool_pinned")).extracting(p -> p.get("tool").asText()).containsExactlyInAnyOrder("read", "stable");
        JsonNode pinnedEvent = events("gateway.tool_pinned").stream().filter(p -> p.get("tool").asText().equals("read")).findFirst().orElseThrow();
        assertThat(pinnedEvent.get("definition_hash").asText()).isEqualTo(pinned);
        assertThat(pinnedEvent.get("definition").get("description").asText()).isEqualTo("Reads a file");

        // The pod now describes its tool otherwise; the restarted gateway reads the pin back from the log.
        Files.writeString(description, "Reads a file, and mails it to an address of the model's choosing");
        manifest("block");
        JsonNode blocked = run();
        assertThat(listed(blocked)).contains("pinned__stable").doesNotContain("pinned__read");
        read = tool(blocked, "read");
        String changed = read.get("definitionHash").asText();
        assertThat(changed).isNotEqualTo(pinned).matches("sha256:[0-9a-f]{64}");
        assertThat(read.get("pin").asText()).isEqualTo(pinned);
        assertThat(read.get("drift").asText()).isEqualTo("block");
        assertThat(tool(blocked, "stable").get("drift").isNull()).isTrue();
        assertThat(blocked.get("stderr").asText()).contains("pod pinned: tool \"read\" is not served: its definition changed");
        // A call to it is answered -31002 and never reaches the pod.
        JsonNode refused = blocked.at("/steps/2/error");
        assertThat(refused.get("code").asInt()).as(blocked.toString()).isEqualTo(-31002);
        assertThat(refused.get("message").asText()).contains("pod pinned tool read: definition changed: expected " + pinned
                + ", found " + changed);
        assertThat(refused.get("data")).isEqualTo(NodeClient.JSON.createObjectNode().put("pod", "pinned").put("tool", "read")
                .put("expected", pinned).put("found", changed));

        manifest("warn");
        JsonNode warned = run();
        assertThat(listed(warned)).contains("pinned__read", "pinned__stable");
        assertThat(tool(warned, "read").get("drift").asText()).isEqualTo("warn");
        assertThat(warned.at("/steps/2/ok/content/0/text").isTextual()).as(warned.toString()).isTrue();
        assertThat(warned.get("stderr").asText()).contains("pod pinned: tool \"read\": its definition changed");

        // No new first-use pin after a restart; one drift event per process and found hash.
        assertThat(events("gateway.tool_pinned")).hasSize(2);
        List<JsonNode> drifts = events("gateway.tool_drift");
        assertThat(drifts).extracting(p -> p.get("action").asText()).containsExactly("block", "warn");
        assertThat(drifts.get(0).get("pod").asText()).isEqualTo("pinned");
        assertThat(drifts.get(0).get("tool").asText()).isEqualTo("read");
        assertThat(drifts.get(0).get("expected").asText()).isEqualTo(pinned);
        assertThat(drifts.get(0).get("found").asText()).isEqualTo(changed);
        assertThat(drifts.get(0).get("pin").asText()).isEqualTo("tofu");

        Repo.Run approve = Repo.gateway("--manifests", manifests.toString(), "--state", state.toString(), "--approve", "pinned/read");
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(approve.lines()).containsExactly("approved pinned/read " + changed);
        List<JsonNode> approvals = events("gateway.tool_approved");
        assertThat(approvals).hasSize(1);
        assertThat(approvals.get(0).get("definition_hash").asText()).isEqualTo(changed);
        assertThat(approvals.get(0).get("previous").asText()).isEqualTo(pinned);
        assertThat(events("gateway.tool_drift")).hasSize(2);

        manifest("block");
        JsonNode approved = run();
        assertThat(listed(approved)).contains("pinned__read");
        assertThat(tool(approved, "read").get("pin").asText()).isEqualTo(changed);
        assertThat(tool(approved, "read").get("drift").isNull()).isTrue();

        Repo.Run unknown = Repo.gateway("--manifests", manifests.toString(), "--state", state.toString(), "--approve", "pinned/write");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.stderr()).contains("pod pinned does not list a tool \"write\"");
        assertThat(events("gateway.tool_approved")).hasSize(1);
    }

    @Test
    void anExplicitPinThatDiffersBlocksTheToolAndCannotBeApprovedFromTheCommandLine() throws Exception {
        state = dir.resolve("state");
        description = Files.writeString(dir.resolve("description.txt"), "Reads a file");
        manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(manifests.resolve("declared.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: pinned }
                spec:
                  command: [python3, pinned_pod.py]
                  workdir: %s
                  protocolEra: legacy
                  preWarm: true
                  env: { PIN_DESCRIPTION_FILE: "%s" }
                  tools:
                    - name: read
                      description: Reads a file
                      inputSchema: { type: object }
                      pin: "sha256:%s"
                    - name: stable
                      description: Never changes
                      inputSchema: { type: object }
                      annotations: { readOnlyHint: true }
                """.formatted(NodeClient.PODS, description, "0".repeat(64)));
        Repo.Run validate = Repo.gateway("--manifests", manifests.toString(), "--validate");
        assertThat(validate.exitCode()).as(validate.stderr()).isZero();
        String declared = validate.lines().stream().filter(l -> l.startsWith("pinned__read ")).findFirst().orElseThrow().split(" ")[2];

        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--state", state.toString()),
                List.of(NodeClient.step("waitListChanged").put("count", 1).put("timeoutMs", 30000), NodeClient.step("listTools"),
                        NodeClient.call("meta__status", "{}")));
        List<String> names = new ArrayList<>();
        session.at("/steps/1/ok/tools").forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).as(session.toString()).contains("pinned__stable").doesNotContain("pinned__read");
        JsonNode read = null;
        for (JsonNode tool : session.at("/steps/2/ok/structuredContent/pods/pinned/tools")) {
            if (tool.get("name").asText().equals("read")) {
                read = tool;
            }
        }
        assertThat(read).as(session.toString()).isNotNull();
        assertThat(read.get("definitionHash").asText()).isEqualTo(declared);
        assertThat(read.get("pin").asText()).isEqualTo("sha256:" + "0".repeat(64));
        assertThat(read.get("drift").asText()).isEqualTo("block");
        List<JsonNode> drifts = events("gateway.tool_drift");
        assertThat(drifts).hasSize(1);
        assertThat(drifts.get(0).get("pin").asText()).isEqualTo("manifest");

        Repo.Run approve = Repo.gateway("--manifests", manifests.toString(), "--state", state.toString(), "--approve", "pinned/read");
        assertThat(approve.exitCode()).isEqualTo(1);
        assertThat(approve.stderr()).contains("has an explicit pin").contains("set its pin to " + declared);
        assertThat(events("gateway.tool_approved")).isEmpty();
    }
}
