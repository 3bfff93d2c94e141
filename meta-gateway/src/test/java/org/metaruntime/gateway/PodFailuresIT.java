package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Pods that crash or never start: the failing pod is named, the others keep serving, nothing is left. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PodFailuresIT {

    @TempDir
    Path dir;

    @Test
    void aCrashFailsTheCallInFlightAtOnceAndThePodIsRestarted() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "fixture", "other");
        // the restart ends when the new process answers: the startup timeout and the attempts only guard against a
        // hang (a slow machine must not make the restart fail and start a third process, nor outlast the retries)
        NodeClient.startupTimeout(manifests.resolve("fixture.yaml"), "60s");
        ObjectNode retry = step("callUntilOk").put("name", "fixture__echo").put("attempts", 900).put("pauseMs", 100);
        retry.putObject("arguments").put("text", "back");
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString()), List.of(
                call("fixture__crash", "{\"code\": 7}"), call("other__echo", "{\"text\": \"still here\"}"), retry,
                call("meta__status", "{}")));
        NodeClient.assertAllGone(session, pids);
        JsonNode crash = session.get("steps").get(0).get("error");
        assertThat(crash).as(session.toString()).isNotNull();
        assertThat(crash.get("code").asInt()).as(crash.toString()).isEqualTo(-32002);
        assertThat(crash.get("message").asText()).as(crash.toString()).contains("pod fixture tool crash: the pod is not available: the pod exited with code 7");
        assertThat(crash.at("/data/exitCode").asInt()).isEqualTo(7);
        assertThat(crash.at("/data/stderrTail").asText()).contains("crashing on purpose");
        assertThat(session.at("/steps/1/ok/structuredContent/echo").asText()).isEqualTo("still here");
        JsonNode retried = session.get("steps").get(2).get("ok");
        assertThat(retried).as(session.get("steps").get(2).toString()).isNotNull();
        assertThat(retried.at("/result/content/0/text").asText()).isEqualTo("back");
        retried.get("errors").forEach(e -> assertThat(e.get("code").asInt()).as(e.toString()).isEqualTo(-32002));
        JsonNode status = session.at("/steps/3/ok/structuredContent/pods/fixture");
        assertThat(status.get("restarts").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(status.get("callsFailed").asInt()).isGreaterThanOrEqualTo(1);
        try (var files = Files.list(pids)) {
            assertThat(files.count()).as("fixture twice (crashed, restarted) and other once").isEqualTo(3);
        }
    }

    @Test
    void aPodThatCannotStartIsNamedAndTheOthersKeepServing() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "other");
        // its exits end its startup: the startup timeout only guards against a hang (a short one would let a slow
        // machine take the process, silent until it exits, for a bare JSON-RPC pod that started)
        Files.writeString(manifests.resolve("broken.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: broken }
                spec:
                  command: ["python3", "-c", "import sys; sys.stderr.write('no config here\\\\n'); sys.exit(5)"]
                  startupTimeout: 60s
                  tools:
                    - name: work
                      inputSchema: { type: object }
                """);
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString()), List.of(
                call("broken__work", "{}"), call("other__echo", "{\"text\": \"ok\"}"), call("meta__status", "{}")));
        NodeClient.assertAllGone(session, pids);
        JsonNode failed = session.get("steps").get(0).get("error");
        assertThat(failed).as(session.toString()).isNotNull();
        assertThat(failed.get("code").asInt()).as("%s", session).isEqualTo(-32003);
        assertThat(failed.get("message").asText()).contains("pod broken tool work: the pod failed to start");
        assertThat(failed.at("/data/stderrTail").asText()).contains("no config here");
        assertThat(session.at("/steps/1/ok/structuredContent/echo").asText()).isEqualTo("ok");
        assertThat(session.at("/steps/2/ok/structuredContent/pods/broken/lastError").asText()).isNotEmpty();
    }
}
