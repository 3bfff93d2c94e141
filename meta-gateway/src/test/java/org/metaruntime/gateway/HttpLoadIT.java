package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * A bounded load on loopback: 16 TypeScript SDK clients over Streamable HTTP, 64 calls in flight each, on one pod;
 * none lost or failed, and neither the gateway's threads nor its heap (after a GC) grow between a warm-up round of
 * 2,048 calls and the end of the run.
 *
 * <p>The run makes {@code load.calls} calls (20,000 when unset): 5,000 in the build, 20,000 with {@code -Psoak}.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class HttpLoadIT {

    private static final Pattern GAUGE = Pattern.compile("(?m)^%s(?:[{,][^}]*\\})? ([0-9.eE+-]+)$");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private JsonNode load(HttpGateway gateway, int calls) throws Exception {
        ObjectNode spec = NodeClient.JSON.createObjectNode().put("url", gateway.url()).put("tool", "fixture__echo")
                .put("clients", 16).put("inflight", 64).put("calls", calls);
        Path out = dir.resolve("load.json");
        Process node = new ProcessBuilder(Repo.tool("node"), NodeClient.NODE_DIR.resolve("load.mjs").toString(), spec.toString())
                .directory(NodeClient.NODE_DIR.toFile()).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        node.getOutputStream().close();
        if (!node.waitFor(840, TimeUnit.SECONDS)) {
            node.destroyForcibly();
            throw new AssertionError("the load did not end within 840 s");
        }
        return NodeClient.JSON.readTree(Files.readString(out));
    }

    /** Runs a full GC in the gateway, then reads a gauge from /metrics (summed over its series). */
    private double gauge(HttpGateway gateway, String name, boolean gcFirst) throws Exception {
        if (gcFirst) {
            Process jcmd = new ProcessBuilder(Repo.tool("jcmd"), Long.toString(gateway.pid()), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(jcmd.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        String text = http.send(HttpRequest.newBuilder(URI.create(gateway.base() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile(String.format(GAUGE.pattern(), Pattern.quote(name))).matcher(text);
        double sum = 0;
        boolean found = false;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            found = true;
        }
        assertThat(found).as("%s in /metrics", name).isTrue();
        return sum;
    }

    @Test
    void sixteenClientsSixtyFourInFlightEachNoneLost() throws Exception {
        int calls = Integer.getInteger("load.calls", 20_000);
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        Path manifest = manifests.resolve("fixture.yaml");
        NodeClient.callTimeout(manifest, "120s");
        // The full JIT, as a gateway serving for long runs (the build starts the others with the client compiler only);
        // idle HTTP threads end after 2 s rather than 10 s.
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString()),
                HttpGateway.threadIdleTimeout("2s", true))) {
            JsonNode warm = load(gateway, 2048);
            assertThat(warm.get("ok").asInt()).as(warm.toString()).isEqualTo(2048);
            double threadsBefore = gauge(gateway, "jvm_threads_live_threads", false);
            double heapBefore = gauge(gateway, "jvm_memory_used_bytes{area=\"heap\"", true);

            JsonNode run = load(gateway, calls);
            assertThat(run.get("ok").asInt()).as(run.toString()).isEqualTo(calls);
            assertThat(run.get("failed").asInt()).isZero();
            assertThat(run.get("mismatched").asInt()).isZero();

            // The server's pool grows with the load and lets idle threads go after 2 s: a leak never comes back down.
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                    assertThat(gauge(gateway, "jvm_threads_live_threads", false))
                            .as("gateway threads after the run (before: %s)", threadsBefore)
                            .isLessThanOrEqualTo(threadsBefore + 8));
            double heapAfter = gauge(gateway, "jvm_memory_used_bytes{area=\"heap\"", true);
            assertThat(heapAfter).as("heap after a GC, after the run (before: %s)", heapBefore).isLessThan(heapBefore + 32 * 1024 * 1024);
            assertThat(gauge(gateway, "meta_gateway_tool_calls_seconds_count", false)).isEqualTo(2048 + calls);
            try (var pids = Files.list(dir.resolve("pids"))) {
                assertThat(pids.count()).as("one pod process for all clients").isEqualTo(1);
            }
            gateway.stopCleanly();
        }
    }
}
