package org.metaruntime.supervisor;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/**
 * The {@code internal} packages of meta-supervisor stay internal: no public or protected signature of its API
 * names one of their types.
 */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(ProcessSpec.class);
    }
}
