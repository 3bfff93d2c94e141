package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.Tools;

/**
 * The operator console in a real headless Chromium ({@code console.mjs}: puppeteer-core against Debian's
 * {@code chromium}) over {@code bin/meta-gateway --transport http} with named tokens, a policy, an audit log and two
 * python pods, while the TypeScript SDK client calls the gateway: the page asks for a token and asks again when one
 * is refused; shows a pod idle, then healthy once a call started it, then restarting and healthy again after a kill
 * of its pid, each within 2 s, with its calls served, percentiles, uptime and era; lists a call with its outcome,
 * time of day, duration and the trace id the client sent, filters the calls by outcome, pod, tool and principal and
 * pages to older ones; filters the events by module and type; shows a tool's contract, hashes and profiles, and the
 * drift of a third pod's tools whose pins their definitions do not match (block, warn); shows a pod's 64 KiB stderr by
 * its end and a hostile tool description as text, running neither; hides another profile's tool, pod and calls from a
 * foreign principal; shows a banner once the gateway is gone, tries again less and less often (a few failed requests
 * in the browser's console) and, without a reload, within 2 s of its answering again, shows live data from the gateway
 * started anew on the same port without tokens or policy, which a new browser session then reads from loopback
 * without being asked for a token; all without other console errors or CSP violations. While 100 calls a second
 * arrive as events, the page's own work in any frame (the "console ..." measures of its render functions and stream
 * reading) stays within 100 ms; the raw frame times are recorded beside it in
 * {@code target/console-screenshots/console-run.json}. One browser for the class; a screenshot of each view goes to
 * {@code target/console-screenshots}.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ConsoleIT {

    static final Path SHOTS = Path.of("target", "console-screenshots").toAbsolutePath();
    private static final String HOSTILE = "<img src=x onerror=window.__pwned=true>";
    private static final String STDERR_END = "the last line of a long stderr";
    /** The page's own work allowed in one frame. */
    private static final long FRAME_BUDGET_MS = 100;
    private static final Duration DRIVER_TIMEOUT = Duration.ofSeconds(200);
    private static final String POLICY = """
            apiVersion: mcp-meta/v1
            kind: GatewayPolicy
            profiles:
              guest:
                tools: ["alpha__*"]
            """;

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @Test
    void theConsoleShowsWhatRunsToEachPrincipal() throws Exception {
        String chromium = Tools.required("chromium");
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "alpha", "beta");
        Path alpha = manifests.resolve("alpha.yaml");
        Files.writeString(alpha, Files.readString(alpha).replace("    - name: echo\n",
                "    - name: echo\n      description: \"" + HOSTILE + "\"\n"));
        Path beta = manifests.resolve("beta.yaml");
        Files.writeString(beta, Files.readString(beta).replace("env: { ", "env: { FIXTURE_STDERR: \"" + longStderr() + "\", "));
        pinnedPod(manifests, Files.writeString(dir.resolve("description.txt"), "Reads a file"));
        Path policy = Files.writeString(dir.resolve("policy.yaml"), POLICY);
        Path tokens = Files.writeString(dir.resolve("tokens.yaml"), """
                - { name: ops, token: "${CONSOLE_OPS_TOKEN}", profiles: [all] }
                - { name: guest, token: "${CONSOLE_GUEST_TOKEN}", profiles: [guest] }
                """);
        String ops = UUID.randomUUID().toString();
        String guest = UUID.randomUUID().toString();
        Files.createDirectories(SHOTS);

        List<String> args = List.of("--manifests", manifests.toString(), "--policy", policy.toString(),
                "--tokens", tokens.toString(), "--state", dir.resolve("state").toString());
        Map<String, String> env = Map.of("CONSOLE_OPS_TOKEN", ops, "CONSOLE_GUEST_TOKEN", guest);
        JsonNode seen;
        try (HttpGateway gateway = HttpGateway.start(args, env)) {
            ProcessHandle.of(gateway.pid()).ifPresent(leaks::watch);
            ObjectNode script = NodeClient.JSON.createObjectNode().put("base", gateway.base()).put("chromium", chromium)
                    .put("shots", SHOTS.toString()).put("opsToken", ops).put("guestToken", guest)
                    .put("echoTool", "alpha__echo").put("hiddenTool", "beta__echo").put("gatewayPid", gateway.pid())
                    .put("stderrEnd", STDERR_END);
            script.putObject("driftTools").put("pinned__read", "block").put("pinned__stable", "warn");
            List<String> samePort = List.of("--manifests", manifests.toString(), "--state", dir.resolve("state").toString(), "--port", String.valueOf(URI.create(gateway.base()).getPort()));
            seen = drive(script, gateway, () -> {
                HttpGateway again = HttpGateway.start(samePort, env);
                ProcessHandle.of(again.pid()).ifPresent(leaks::watch);
                return again;
            });
        }
        Files.writeString(SHOTS.resolve("console-run.json"), seen.toPrettyString());
        JsonNode checks = seen.get("checks");
        assertThat(seen.has("error")).as("%s", seen).isFalse();
        assertThat(seen.path("csp").asText()).contains("default-src 'self'");
        assertThat(checks.get("tokenPrompt").asText()).contains("needs a token");
        assertThat(checks.at("/wrongToken/message").asText()).contains("refused");
        assertThat(checks.at("/wrongToken/stored")).as("a refused token is not kept").isEmpty();
        assertThat(checks.at("/signedIn/cookie").asText()).as("no cookie").isEmpty();
        assertThat(checks.at("/signedIn/url").asText()).doesNotContain(ops);
        assertThat(checks.get("idleBeforeCall").asBoolean()).as("%s", checks).isTrue();
        assertThat(checks.at("/healthyAfterCall/isError").asBoolean()).as("%s", checks).isFalse();
        assertThat(checks.at("/healthyAfterCall/shownAfterMs").asLong()).isLessThanOrEqualTo(2000);
        assertThat(checks.at("/restartingThenHealthy/restarts").asInt()).as("%s", checks).isPositive();
        assertThat(checks.at("/restartingThenHealthy/restartingShownMs").asLong()).as("shown restarting after the kill")
                .isBetween(0L, 2000L);
        assertThat(checks.at("/restartingThenHealthy/healthyShownMs").asLong())
                .as("shown healthy after the gateway saw it so (below 0: before the test's own 50 ms poll of the API saw it)")
                .isLessThanOrEqualTo(2000L);
        assertThat(checks.get("chart").asBoolean()).as("%s", checks).isTrue();
        assertThat(strings(checks.at("/callInTable/outcomes"))).as("%s", checks).contains("alpha__echo:ok", "alpha__echo:error");
        JsonNode traced = checks.at("/callInTable/traced");
        assertThat(traced.at("/cells/Trace id").asText()).as("%s", traced).isEqualTo(traced.get("traceId").asText());
        assertThat(strings(traced.get("times"))).as("the call's time of day").contains(traced.at("/cells/Time").asText());
        assertThat(traced.at("/cells/Duration").asText()).matches("[0-9.]+ ms");
        assertThat(Double.parseDouble(traced.at("/cells/Duration").asText().replace(" ms", "")))
                .as("at most the client's round trip").isLessThanOrEqualTo(traced.get("tookMs").asDouble());
        assertThat(checks.at("/hostileShownAsText/shown").asText()).isEqualTo(HOSTILE);
        assertThat(checks.at("/hostileShownAsText/images").asInt()).isZero();
        assertThat(checks.at("/hostileShownAsText/ran").asBoolean()).isFalse();
        assertThat(checks.at("/hostileShownAsText/cells/Contract").asText()).isEqualTo("fixture.echo 1.4.2");
        assertThat(checks.at("/hostileShownAsText/cells/Schema hash").asText()).as("%s", checks).isNotBlank();
        assertThat(checks.at("/hostileShownAsText/cells/Definition hash").asText()).isNotBlank();
        assertThat(checks.at("/hostileShownAsText/cells/Profiles").asText()).contains("guest");
        assertThat(checks.at("/drift/pinned__read/text").asText()).as("%s", checks.get("drift")).isEqualTo("block");
        assertThat(checks.at("/drift/pinned__read/className").asText()).isEqualTo("drift-block");
        assertThat(checks.at("/drift/pinned__stable/text").asText()).isEqualTo("warn");
        assertThat(checks.at("/drift/pinned__stable/className").asText()).isEqualTo("drift-warn");
        assertThat(checks.at("/stderrTail/end").asText()).as("%s", checks).isEqualTo(STDERR_END);
        assertThat(checks.at("/stderrTail/chars").asInt()).as("the newest 4,096 characters").isBetween(4000, 4096);
        assertThat(checks.at("/stderrTail/images").asInt()).isZero();
        assertThat(checks.at("/stderrTail/ran").asBoolean()).isFalse();
        assertThat(checks.get("events").asInt()).as("%s", checks).isPositive();
        assertThat(checks.at("/frames/sent").asInt()).as("100 calls a second reached the page as events: %s", checks)
                .isGreaterThanOrEqualTo(250);
        assertThat(checks.at("/frames/parts/events/count").asInt()).as("the page measured its work: %s", checks).isPositive();
        assertThat(checks.at("/frames/maxPageWorkPerFrameMs").asDouble()).as("the page's own work in one frame: %s", checks.get("frames"))
                .isLessThanOrEqualTo(FRAME_BUDGET_MS);
        assertThat(checks.at("/frames/listed").asInt()).as("the event list is bounded").isEqualTo(200);
        JsonNode pod = checks.get("podColumns");
        assertThat(pod.path("Served").asInt()).as("%s", pod).isGreaterThanOrEqualTo(250);
        assertThat(pod.path("p50").asText()).matches("[0-9.]+ ms");
        assertThat(pod.path("p95").asText()).matches("[0-9.]+ ms");
        assertThat(pod.path("Uptime").asText()).matches("[0-9]+ (s|min)");
        assertThat(pod.path("Era").asText()).isNotBlank();
        JsonNode calls = checks.get("callFilters");
        assertThat(calls.get("errors").findValuesAsText("outcome")).as("%s", calls).isNotEmpty().containsOnly("error");
        assertThat(calls.get("filtered").findValuesAsText("tool")).as("%s", calls).isNotEmpty().containsOnly("beta__echo");
        assertThat(calls.get("filtered").findValuesAsText("principal")).containsOnly("ops");
        assertThat(calls.get("firstPage").asInt()).isEqualTo(50);
        assertThat(calls.get("withOlder").asInt()).as("older calls on demand").isGreaterThan(50);
        assertThat(checks.at("/eventFilter/items").asInt()).as("%s", checks.get("eventFilter")).isPositive();
        assertThat(checks.at("/eventFilter/matching").asInt()).isEqualTo(checks.at("/eventFilter/items").asInt());
        assertThat(checks.get("replicas").asText()).as("without a database, a cluster of one").contains("single gateway");
        assertThat(checks.at("/phoneWidth/overflow").asInt()).as("no sideways scrolling at phone width").isLessThanOrEqualTo(0);
        assertThat(strings(checks.at("/foreignPrincipal/tools"))).as("%s", checks).contains("alpha__echo").doesNotContain("beta__echo");
        assertThat(strings(checks.at("/foreignPrincipal/pods"))).containsExactly("alpha");
        assertThat(strings(checks.at("/foreignPrincipal/calls"))).contains("alpha__echo").doesNotContain("beta__echo");
        assertThat(checks.get("disconnected").asText()).as("%s", checks).contains("Disconnected");
        assertThat(checks.at("/reconnected/sameDocument").asBoolean()).as("reconnected without a reload: %s", checks).isTrue();
        assertThat(checks.at("/reconnected/isError").asBoolean()).isFalse();
        assertThat(checks.at("/reconnected/shownBackMs").asLong()).as("shown connected after the gateway answered again: %s",
                checks.get("reconnected")).isLessThanOrEqualTo(2000L);
        assertThat(checks.at("/reconnected/healthyShownMs").asLong()).as("live data from the new gateway").isLessThanOrEqualTo(2000);
        assertThat(checks.at("/withoutToken/stored").asInt()).as("no token kept").isZero();
        assertThat(checks.at("/withoutToken/login").asBoolean()).as("no token asked on loopback without tokens: %s", checks).isFalse();
        assertThat(strings(checks.at("/withoutToken/pods"))).containsExactly("alpha", "beta", "pinned");
        assertThat(strings(checks.at("/withoutToken/tools"))).contains("alpha__echo", "beta__echo");
        assertThat(seen.get("consoleErrors").size()).as("attempts to reach the gateway while it was away back off: %s", seen.get("consoleErrors"))
                .isLessThanOrEqualTo(5 + checks.at("/reconnected/backAfterMs").asInt() / 1000);
        // a request the page sent while the gateway was stopping is reset; those it sent once the gateway was gone are refused
        assertThat(strings(seen.get("consoleErrors"))).as("console errors").allMatch(e -> e.startsWith("ops: ")
                && (e.contains("ERR_CONNECTION_REFUSED") || e.contains("ERR_CONNECTION_RESET")));
        assertThat(seen.get("cspViolations")).as("CSP violations").isEmpty();
        assertThat(seen.get("pageCsp")).as("CSP violations seen by the page").isEmpty();
        assertThat(Files.list(SHOTS).map(p -> p.getFileName().toString()).toList())
                .contains("console-login.png", "console-pods.png", "console-stderr.png", "console-tools.png", "console-calls.png",
                        "console-events.png", "console-replicas.png", "console-phone.png", "console-guest.png", "console-disconnected.png");

        if (seen.hasNonNull("browserPid")) {
            ProcessHandle.of(seen.get("browserPid").asLong()).ifPresent(leaks::watch);
        }
    }

    /**
     * Adds to {@code manifests} a pod started with the gateway whose tool {@code read} has an explicit pin its
     * definition does not match (blocked) and whose tool {@code stable} has one too, with {@code onDrift: warn}.
     */
    private static void pinnedPod(Path manifests, Path description) throws IOException {
        String pin = "sha256:" + "0".repeat(64);
        // a generous startup timeout: a short one would let a slow machine take the pod, silent while python starts,
        // for a bare JSON-RPC pod, whose tools are served as declared and never drift
        NodeClient.pinnedPod(manifests, description, "", List.of("preWarm: true", "startupTimeout: 60s"), List.of(
                new NodeClient.PinnedTool("read", "Reads a file", pin),
                new NodeClient.PinnedTool("stable", "Never changes", pin, "annotations: { readOnlyHint: true }",
                        "onDrift: warn")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(node -> out.add(node.asText()));
        }
        return out;
    }

    /** A pod's stderr of more than 64 KiB, each line with {@link #HOSTILE}, ending with {@link #STDERR_END}; YAML-escaped. */
    private static String longStderr() {
        StringBuilder text = new StringBuilder();
        for (int line = 0; text.length() < 64 * 1024; line++) {
            text.append("line ").append(line).append(" of a pod's stderr ").append(HOSTILE).append(' ').append("x".repeat(60)).append('\n');
        }
        return text.append(STDERR_END).toString().replace("\n", "\\n");
    }

    /** Starts a gateway like the first, on its port. */
    private interface Restart {
        HttpGateway start() throws Exception;
    }

    /**
     * Runs {@code console.mjs} with Node 22 (puppeteer-core needs it); once it has stopped {@code gateway} (SIGTERM, exit
     * code 0), starts another with {@code restart} for the page to reconnect to, and stops it at the end. Returns what
     * the script printed.
     */
    private static JsonNode drive(ObjectNode script, HttpGateway gateway, Restart restart) throws Exception {
        Path in = Files.writeString(Files.createTempFile("console-script", ".json"), script.toString());
        Path out = Files.createTempFile("console-out", ".json");
        Path err = Files.createTempFile("console-err", ".txt");
        long deadline = System.nanoTime() + DRIVER_TIMEOUT.toNanos();
        HttpGateway again = null;
        try {
            Process node = new ProcessBuilder(InspectorIT.NODE22.toString(), NodeClient.NODE_DIR.resolve("console.mjs").toString(), "@" + in)
                    .directory(NodeClient.NODE_DIR.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            node.getOutputStream().close();
            try {
                CompletableFuture.anyOf(node.onExit(), gateway.exited()).get(DRIVER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // reported below
            }
            if (node.isAlive() && !gateway.isAlive()) {
                assertThat(gateway.exited().get().exitValue()).as("the gateway ends on SIGTERM; stderr:\n%s", gateway.stderr()).isZero();
                again = restart.start();
            }
            if (!node.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                node.descendants().forEach(ProcessHandle::destroyForcibly);
                node.destroyForcibly();
                throw new AssertionError("the browser session did not end within " + DRIVER_TIMEOUT.toSeconds() + " s; stderr: "
                        + Files.readString(err));
            }
            if (again != null) {
                again.stopCleanly();
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(printed).as("console.mjs output (stderr: %s)", Files.readString(err)).isNotBlank();
            return NodeClient.JSON.readTree(printed);
        } finally {
            if (again != null) {
                again.close();
            }
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
