package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.supervisor.internal.SharedTimer;

/**
 * The connections a test opened: after each test they are closed, their servers must be gone, no process of the
 * test may be left, and no shared-timer lease held. Register with {@code @RegisterExtension}.
 */
final class OpenConnections implements AfterEachCallback {

    private final List<McpConnection> opened = new ArrayList<>();

    /** Remembers {@code connection} for the checks after the test; returns it. */
    McpConnection add(McpConnection connection) {
        opened.add(connection);
        return connection;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (McpConnection c : opened) {
            try {
                c.close(Duration.ofSeconds(10));
            } catch (McpBoundaryException ignored) {
                // closed by the test already
            }
            Peers.assertGone(c.pid());
        }
        opened.clear();
        Peers.assertNoProcessLeft();
        assertThat(SharedTimer.leases()).isZero();
    }
}
