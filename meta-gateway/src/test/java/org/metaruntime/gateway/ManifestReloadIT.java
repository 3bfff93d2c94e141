package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reloading manifests without a restart, with {@code bin/meta-gateway} over stdio and the TypeScript SDK's client:
 * on SIGHUP (and with {@code --watch}, on a change) added pods are served, removed ones stop once their calls end,
 * changed ones run anew; the client gets {@code notifications/tools/list_changed} and keeps its session; an invalid
 * manifest changes nothing and is logged as {@code file:line}. No process is left behind.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ManifestReloadIT {

    @TempDir
    Path dir;

    private Path manifests;

    /** A fixture pod's manifest; the pod writes its pid into {@code pids/<name>}. */
    private String pod(String name, String run, String... extraTools) throws IOException {
        Path pids = Files.createDirectories(dir.resolve("pids").resolve(name));
        StringBuilder yaml = new StringBuilder("""
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: %s }
                spec:
                  command: ["python3", "fixture_pod.py"]
                  workdir: %s
                  env: { FIXTURE_PID_DIR: "%s", RUN: "%s" }
                  callTimeout: 30s
                  shutdownTimeout: 3s
                  tools:
                    - name: echo
                      inputSchema: { type: object, required: [text], properties: { text: { type: string } } }
                    - name: slow
                      inputSchema: { type: object, properties: { seconds: { type: number }, steps: { type: integer } } }
                """.formatted(name, NodeClient.PODS, pids, run));
        for (String tool : extraTools) {
            yaml.append("    - name: ").append(tool).append("\n      inputSchema: { type: object }\n");
        }
        return yaml.toString();
    }

    private Path file(String name) {
        return manifests.resolve(name + ".yaml");
    }

    private String pids(String name) {
        return dir.resolve("pids").resolve(name).toString();
    }

    private static ObjectNode write(Path file, String text) {
        return NodeClient.step("writeFile").put("path", file.toString()).put("text", text);
    }

    private static List<String> toolNames(JsonNode listed) {
        List<String> names = new ArrayList<>();
        listed.at("/ok/tools").forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    @Test
    void sighupServesAddedPodsStopsRemovedOnesAfterTheirCallsAndRunsChangedOnesAnew() throws Exception {
        manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(file("alpha"), pod("alpha", "1"));
        Files.writeString(file("beta"), pod("beta", "1"));
        List<ObjectNode> steps = List.of(
                NodeClient.step("listTools"),                                                               // 0
                NodeClient.call("alpha__echo", "{\"text\":\"a\"}"),                                           // 1
                NodeClient.call("beta__echo", "{\"text\":\"b\"}"),                                            // 2
                NodeClient.call("beta__slow", "{\"seconds\":6,\"steps\":12}").put("op", "callInBackground").put("key", "long"),
                NodeClient.step("waitProgress").put("key", "long"),                                         // 4
                write(file("alpha"), pod("alpha", "2", "sleep")),                                           // 5
                NodeClient.step("removeFile").put("path", file("beta").toString()),                          // 6
                write(file("gamma"), pod("gamma", "1")),                                                    // 7
                NodeClient.step("signal").put("name", "SIGHUP"),                                            // 8
                NodeClient.step("waitListChanged").put("count", 1),                                         // 9
                NodeClient.step("listTools"),                                                               // 10
                NodeClient.step("pids").put("dir", pids("beta")),                                           // 11
                NodeClient.step("awaitBackground").put("key", "long"),                                      // 12
                NodeClient.step("waitDead").put("dir", pids("beta")),                                       // 13
                NodeClient.call("alpha__echo", "{\"text\":\"a2\"}"),                                          // 14
                NodeClient.step("waitDead").put("dir", pids("alpha")).put("count", 1),                      // 15
                NodeClient.step("pids").put("dir", pids("alpha")),                                          // 16
                NodeClient.call("gamma__echo", "{\"text\":\"g\"}"),                                           // 17
                NodeClient.call("beta__echo", "{\"text\":\"b2\"}"),                                           // 18
                NodeClient.call("meta__status", "{}"),                                                      // 19
                write(file("gamma"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata: { name: gamma }\nspec:\n  comand: [\"x\"]\n"),
                NodeClient.step("signal").put("name", "SIGHUP"),                                            // 21
                NodeClient.step("waitStderr").put("text", file("gamma") + ":5:"),                            // 22
                NodeClient.step("listTools"),                                                               // 23
                NodeClient.call("gamma__echo", "{\"text\":\"still\"}"),                                       // 24
                NodeClient.step("listChangedCount"));                                                       // 25
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString()), steps);
        JsonNode s = session.get("steps");
        String stderr = session.get("stderr").asText();

        assertThat(toolNames(s.get(0))).containsExactly("alpha__echo", "alpha__slow", "beta__echo", "beta__slow", "meta__status");
        assertThat(s.get(1).at("/ok/content/0/text").asText()).isEqualTo("a");
        assertThat(s.get(9).has("ok")).as("list_changed after SIGHUP: %s%nstderr:%n%s", s.get(9), stderr).isTrue();
        assertThat(toolNames(s.get(10))).containsExactly("alpha__echo", "alpha__sleep", "alpha__slow", "gamma__echo",
                "gamma__slow", "meta__status");
        assertThat(stderr).contains("manifests reloaded: added gamma; changed alpha; removed beta");

        // The removed pod finished the call it had in flight, then stopped.
        assertThat(s.get(11).at("/ok/0/alive").asBoolean()).as("beta runs while its call does: %s", s.get(11)).isTrue();
        assertThat(s.get(12).at("/ok/content/0/text").asText()).as("%s", s.get(12)).isEqualTo("done after 12 steps");
        assertThat(s.get(13).has("ok")).as("beta stopped: %s", s.get(13)).isTrue();

        // The changed pod runs anew from its new manifest; its former run stopped.
        assertThat(s.get(14).at("/ok/content/0/text").asText()).isEqualTo("a2");
        assertThat(s.get(16).get("ok")).hasSize(2);
        assertThat(s.get(16).findValues("alive").stream().filter(JsonNode::asBoolean).count()).as("%s", s.get(16)).isEqualTo(1);

        assertThat(s.get(17).at("/ok/content/0/text").asText()).isEqualTo("g");
        assertThat(s.get(18).at("/error/code").asInt()).as("%s", s.get(18)).isEqualTo(-32602);
        JsonNode pods = s.get(19).at("/ok/structuredContent/pods");
        List<String> podNames = new ArrayList<>();
        pods.fieldNames().forEachRemaining(podNames::add);
        assertThat(podNames).containsExactly("alpha", "gamma");

        // An invalid manifest changes nothing; its problem is logged with file:line.
        assertThat(s.get(22).has("ok")).as("the problem is logged: %s%nstderr:%n%s", s.get(22), stderr).isTrue();
        assertThat(toolNames(s.get(23))).contains("gamma__echo");
        assertThat(s.get(24).at("/ok/content/0/text").asText()).isEqualTo("still");
        assertThat(s.get(25).get("ok").asInt()).as("one list change").isEqualTo(1);

        for (String name : List.of("alpha", "beta", "gamma")) {
            NodeClient.assertAllGone(session, dir.resolve("pids").resolve(name));
        }
    }

    @Test
    void watchReloadsWhenAManifestIsAddedOrRemoved() throws Exception {
        manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(file("alpha"), pod("alpha", "1"));
        List<ObjectNode> steps = List.of(
                NodeClient.step("listTools"),                                                               // 0
                write(file("delta"), pod("delta", "1")),                                                    // 1
                NodeClient.step("waitListChanged").put("count", 1),                                         // 2
                NodeClient.step("listTools"),                                                               // 3
                NodeClient.call("delta__echo", "{\"text\":\"d\"}"),                                           // 4
                NodeClient.step("removeFile").put("path", file("delta").toString()),                         // 5
                NodeClient.step("waitListChanged").put("count", 2),                                         // 6
                NodeClient.step("waitDead").put("dir", pids("delta")),                                      // 7
                NodeClient.step("listTools"));                                                              // 8
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--watch"), steps);
        JsonNode s = session.get("steps");
        String stderr = session.get("stderr").asText();

        assertThat(toolNames(s.get(0))).containsExactly("alpha__echo", "alpha__slow", "meta__status");
        assertThat(s.get(2).has("ok")).as("list_changed after the new manifest: %s%nstderr:%n%s", s.get(2), stderr).isTrue();
        assertThat(toolNames(s.get(3))).contains("delta__echo", "delta__slow");
        assertThat(s.get(4).at("/ok/content/0/text").asText()).isEqualTo("d");
        assertThat(s.get(6).has("ok")).as("list_changed after the removal: %s", s.get(6)).isTrue();
        assertThat(s.get(7).has("ok")).as("delta stopped: %s", s.get(7)).isTrue();
        assertThat(toolNames(s.get(8))).containsExactly("alpha__echo", "alpha__slow", "meta__status");

        for (String name : List.of("alpha", "delta")) {
            NodeClient.assertAllGone(session, dir.resolve("pids").resolve(name));
        }
    }
}
