package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metaruntime.testing.LeakCheck;

/**
 * Signals to {@code bin/meta-gateway} serving stdio, as a process: SIGTERM and SIGINT stop every pod and end it with
 * exit code 0; SIGHUP does not end it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StdioSignalsIT {

    @TempDir
    Path dir;

    private StdioGateway gateway;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    /** A gateway whose fixture pod runs (a call spawned it). */
    private void startWithARunningPod() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        gateway = StdioGateway.start("--manifests", manifests.toString());
        gateway.initialize("2025-11-25");
        assertThat(gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\","
                + "\"arguments\":{\"text\":\"up\"}}}").at("/result/content/0/text").asText()).contains("up");
        try (Stream<Path> pids = Files.list(dir.resolve("pids"))) {
            assertThat(pids.count()).as("the pod runs").isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void stopsEveryPodAndExitsZero(String signal) throws Exception {
        startWithARunningPod();
        gateway.signal(signal);
        assertThat(gateway.awaitExit()).as("exit code after SIG%s; stderr:%n%s", signal, gateway.stderr()).isZero();
        NodeClient.assertAllGone(NodeClient.JSON.createObjectNode().put("gatewayPid", gateway.pid()), dir.resolve("pids"));
    }

    @Test
    void sighupDoesNotEndIt() throws Exception {
        startWithARunningPod();
        gateway.signal("HUP");
        assertThat(gateway.awaitStderr("SIGHUP")).as("the gateway logs SIGHUP; stderr:%n%s", gateway.stderr()).isTrue();
        assertThat(gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").get("id").asInt()).isEqualTo(2);
        assertThat(gateway.isAlive()).isTrue();
        gateway.closeStdin();
        assertThat(gateway.awaitExit()).as("stderr:%n%s", gateway.stderr()).isZero();
    }
}
