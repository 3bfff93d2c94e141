package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Tools;

/**
 * The operator console in a real headless Chromium ({@code console.mjs}: puppeteer-core against Debian's
 * {@code chromium}) over {@code bin/meta-gateway --transport http} with named tokens, a policy, an audit log and two
 * python pods, while the TypeScript SDK client calls the gateway: the page asks for a token and says when one is
 * refused, shows a pod started by a call as healthy and a pod killed by its pid as restarting then healthy, lists a
 * call with its outcome, shows a hostile tool description as text without running it, hides another profile's tool
 * and calls from a foreign principal, and shows a banner once the gateway is gone; without console errors or CSP
 * violations. While 100 calls a second arrive as events it records the page's frame times ({@code frames}: the
 * longest frame and long tasks) in {@code target/console-screenshots/console-run.json}, not asserted (a shared machine's
 * load decides them). One gateway and one browser for the class; screenshots go to {@code target/console-screenshots}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleIT {

    static final Path SHOTS = Path.of("target", "console-screenshots").toAbsolutePath();
    private static final String HOSTILE = "<img src=x onerror=window.__pwned=true>";
    private static final String POLICY = """
            apiVersion: mcp-meta/v1
            kind: GatewayPolicy
            profiles:
              guest:
                tools: ["alpha__*"]
            """;

    @TempDir
    Path dir;

    @Test
    void theConsoleShowsWhatRunsToEachPrincipal() throws Exception {
        String chromium = Tools.required("chromium");
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "alpha", "beta");
        Path alpha = manifests.resolve("alpha.yaml");
        Files.writeString(alpha, Files.readString(alpha).replace("    - name: echo\n",
                "    - name: echo\n      description: \"" + HOSTILE + "\"\n"));
        Path policy = Files.writeString(dir.resolve("policy.yaml"), POLICY);
        Path tokens = Files.writeString(dir.resolve("tokens.yaml"), """
                - { name: ops, token: "${CONSOLE_OPS_TOKEN}", profiles: [all] }
                - { name: guest, token: "${CONSOLE_GUEST_TOKEN}", profiles: [guest] }
                """);
        String ops = UUID.randomUUID().toString();
        String guest = UUID.randomUUID().toString();
        Files.createDirectories(SHOTS);

        JsonNode seen;
        long gatewayPid;
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString(), "--policy", policy.toString(),
                "--tokens", tokens.toString(), "--state", dir.resolve("state").toString()),
                Map.of("CONSOLE_OPS_TOKEN", ops, "CONSOLE_GUEST_TOKEN", guest))) {
            gatewayPid = gateway.pid();
            ObjectNode script = NodeClient.JSON.createObjectNode().put("base", gateway.base()).put("chromium", chromium)
                    .put("shots", SHOTS.toString()).put("opsToken", ops).put("guestToken", guest)
                    .put("echoTool", "alpha__echo").put("hiddenTool", "beta__echo").put("gatewayPid", gatewayPid);
            seen = drive(script);
            assertThat(gateway.stop()).as("the gateway ends on SIGTERM").isZero();
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
        assertThat(checks.at("/healthyAfterCall/isError").asBoolean()).as("%s", checks).isFalse();
        assertThat(checks.at("/healthyAfterCall/shownAfterMs").asLong()).isLessThanOrEqualTo(2000);
        assertThat(checks.at("/restartingThenHealthy/restarts").asInt()).as("%s", checks).isPositive();
        assertThat(checks.get("chart").asBoolean()).as("%s", checks).isTrue();
        assertThat(strings(checks.get("callInTable"))).as("%s", checks).contains("alpha__echo:ok", "alpha__echo:error");
        assertThat(checks.at("/hostileShownAsText/shown").asText()).isEqualTo(HOSTILE);
        assertThat(checks.at("/hostileShownAsText/images").asInt()).isZero();
        assertThat(checks.at("/hostileShownAsText/ran").asBoolean()).isFalse();
        assertThat(checks.get("events").asInt()).as("%s", checks).isPositive();
        assertThat(checks.at("/frames/sent").asInt()).as("100 calls a second reached the page as events: %s", checks)
                .isGreaterThanOrEqualTo(250);
        assertThat(checks.at("/phoneWidth/overflow").asInt()).as("no sideways scrolling at phone width").isLessThanOrEqualTo(0);
        assertThat(strings(checks.at("/foreignPrincipal/tools"))).as("%s", checks).contains("alpha__echo").doesNotContain("beta__echo");
        assertThat(strings(checks.at("/foreignPrincipal/pods"))).containsExactly("alpha");
        assertThat(strings(checks.at("/foreignPrincipal/calls"))).contains("alpha__echo").doesNotContain("beta__echo");
        assertThat(checks.get("disconnected").asBoolean()).as("%s", checks).isTrue();
        assertThat(strings(seen.get("consoleErrors"))).as("console errors").allMatch(e -> e.startsWith("ops: ") && e.contains("ERR_CONNECTION_REFUSED"));
        assertThat(seen.get("cspViolations")).as("CSP violations").isEmpty();
        assertThat(seen.get("pageCsp")).as("CSP violations seen by the page").isEmpty();
        assertThat(Files.list(SHOTS).map(p -> p.getFileName().toString()).toList())
                .contains("console-pods.png", "console-tools.png", "console-calls.png", "console-events.png", "console-guest.png");

        List<Long> started = new ArrayList<>(List.of(gatewayPid));
        if (seen.hasNonNull("browserPid")) {
            started.add(seen.get("browserPid").asLong());
        }
        try (var files = Files.list(pids)) {
            files.forEach(f -> started.add(Long.parseLong(f.getFileName().toString())));
        }
        ProcessLeaks.assertAllGone(started);
        Repo.assertNoProcessLeft();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(node -> out.add(node.asText()));
        }
        return out;
    }

    /** Runs {@code console.mjs} with Node 22 (puppeteer-core needs it); returns what it printed. */
    private static JsonNode drive(ObjectNode script) throws Exception {
        Path in = Files.writeString(Files.createTempFile("console-script", ".json"), script.toString());
        Path out = Files.createTempFile("console-out", ".json");
        Path err = Files.createTempFile("console-err", ".txt");
        try {
            Process node = new ProcessBuilder(InspectorIT.NODE22.toString(), NodeClient.NODE_DIR.resolve("console.mjs").toString(), "@" + in)
                    .directory(NodeClient.NODE_DIR.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            node.getOutputStream().close();
            if (!node.waitFor(90, TimeUnit.SECONDS)) {
                node.descendants().forEach(ProcessHandle::destroyForcibly);
                node.destroyForcibly();
                throw new AssertionError("the browser session did not end within 90 s; stderr: " + Files.readString(err));
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(printed).as("console.mjs output (stderr: %s)", Files.readString(err)).isNotBlank();
            return NodeClient.JSON.readTree(printed);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
