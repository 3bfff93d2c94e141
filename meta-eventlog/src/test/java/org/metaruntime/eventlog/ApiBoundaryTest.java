package org.metaruntime.eventlog;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/**
 * The {@code internal} packages of meta-eventlog stay internal: no public or protected signature of its API
 * names one of their types.
 */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(EventLogs.class);
    }
}
