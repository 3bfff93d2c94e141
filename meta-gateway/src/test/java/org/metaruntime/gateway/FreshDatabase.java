package org.metaruntime.gateway;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.metaruntime.testing.PostgresServer;

/**
 * A database of its own on the tests' PostgreSQL server for each test ({@code @RegisterExtension}): made before the
 * test, dropped after it once no process of the test is left.
 */
final class FreshDatabase implements BeforeEachCallback, AfterEachCallback {

    private String url;

    /** The JDBC URL of this test's database. */
    String url() {
        return url;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        url = PostgresServer.get().freshDatabase();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Repo.assertNoProcessLeft();
        PostgresServer.get().dropDatabase(url);
    }
}
