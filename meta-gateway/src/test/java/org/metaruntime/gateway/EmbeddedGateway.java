package org.metaruntime.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.testing.LeakCheck;

/**
 * A test's embedded gateway, as a JUnit extension: the test writes its pods' manifests ({@link #pod}), then serves them
 * over pipes ({@link #piped()}) or HTTP ({@link #http}). After the test it closes what it served and the gateway,
 * deletes the manifests, and then checks that no process the test started is left ({@link LeakCheck#processes()}).
 * One instance per test class instance.
 *
 * <pre>{@code
 * @RegisterExtension
 * final EmbeddedGateway gateway = new EmbeddedGateway();
 *
 * @Test
 * void echoes() throws Exception {
 *     gateway.fixturePod("live", "");
 *     PipedGateway client = gateway.piped();
 *     client.call("live__echo", "{\"text\": \"hi\"}");
 * }
 * }</pre>
 */
final class EmbeddedGateway implements BeforeEachCallback, AfterEachCallback {

    private final LeakCheck leaks = LeakCheck.processes();
    private Path manifests;
    private MetaGateway gateway;
    private Serving serving;
    private PipedGateway client;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        manifests = Files.createTempDirectory("embedded-gateway-");
        leaks.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            close();
        } finally {
            leaks.afterEach(context);
        }
    }

    /**
     * Writes the manifest of the {@code ToolPod} {@code name}, whose {@code spec} is {@code spec} (YAML, written as if
     * at the top level).
     */
    void pod(String name, String spec) throws IOException {
        Files.writeString(manifests.resolve(name + ".yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: %s }
                spec:
                %s""".formatted(name, spec.indent(2)));
    }

    /**
     * Writes the manifest of the pod {@code name} running the MCP fixture pod ({@code fixture_pod.py}, which needs
     * python3), with {@code more} added to its spec (YAML, as if at the top level; may be empty).
     */
    void fixturePod(String name, String more) throws IOException {
        Repo.tool("python3");
        pod(name, """
                command: ["python3", "fixture_pod.py"]
                workdir: %s
                """.formatted(NodeClient.PODS) + more);
    }

    /** A gateway of the pods written so far, served over pipes, and its client once initialized. */
    PipedGateway piped() throws IOException {
        client = PipedGateway.serve(MetaGateway.builder().manifests(manifests).build());
        client.initialize();
        return client;
    }

    /** A gateway of the pods written so far, served over HTTP with {@code options} on a free port of 127.0.0.1. */
    Serving http(HttpOptions options) {
        gateway = MetaGateway.builder().manifests(manifests).build();
        serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0), options);
        return serving;
    }

    private void close() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            if (serving != null) {
                serving.close();
            }
            if (gateway != null) {
                gateway.close();
            }
            try (Stream<Path> files = Files.walk(manifests)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
