package org.metaruntime.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/**
 * The connections a test opened: after each test they are closed, then the {@link LeakCheck} runs: no process of the
 * test may be left, and no shared-timer lease held. Register with {@code @RegisterExtension}.
 */
final class OpenConnections implements BeforeEachCallback, AfterEachCallback {

    private final List<McpConnection> opened = new ArrayList<>();
    private final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases);

    /** Remembers {@code connection} for the checks after the test; returns it. */
    McpConnection add(McpConnection connection) {
        opened.add(connection);
        return connection;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        leaks.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (McpConnection c : opened) {
            try {
                c.close(Duration.ofSeconds(10));
            } catch (McpBoundaryException ignored) {
                // closed by the test already
            }
        }
        opened.clear();
        leaks.afterEach(context);
    }
}
