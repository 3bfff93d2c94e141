package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * A pod that writes its secret (a manifest {@code env} value) to stderr: the status's {@code stderrTail} and the
 * {@code data.stderrTail} of the error its death gives show {@code [redacted]} where the value was, through
 * {@code bin/meta-gateway} and the TypeScript SDK client.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SecretsIT {

    private static final String SECRET = "pa55-w0rd-of-the-pod";

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void aPodsSecretNeverLeavesTheGatewayInItsStderrTail() throws Exception {
        Path manifests = NodeClient.pinnedPod(dir, "PIN_SECRET: \"" + SECRET + "\"");
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--log-level", "debug"), List.of(
                NodeClient.step("listTools"),
                NodeClient.call("meta__status", "{}"),
                NodeClient.call("pinned__stable", "{\"fail\": true}")));
        String tail = session.at("/steps/1/ok/structuredContent/pods/pinned/stderrTail").asText();
        assertThat(tail).as(session.toString()).contains("starting with [redacted]");
        JsonNode error = session.at("/steps/2/error");
        assertThat(error.isMissingNode()).as(session.toString()).isFalse();
        assertThat(error.at("/data/stderrTail").asText()).contains("failing with [redacted]");
        assertThat(session.toString()).doesNotContain(SECRET);
    }
}
