package org.metaruntime.module;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/** The {@code internal} package of meta-module stays internal. */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(ModuleServer.class);
    }
}
