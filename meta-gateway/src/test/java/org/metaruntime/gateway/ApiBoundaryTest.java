package org.metaruntime.gateway;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/**
 * The {@code internal} packages of meta-gateway stay internal: no public or protected signature of its API
 * names one of their types.
 */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(ManifestProblem.class);
    }
}
