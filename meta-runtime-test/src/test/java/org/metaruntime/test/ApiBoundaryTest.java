package org.metaruntime.test;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/** The {@code internal} package of meta-runtime-test stays internal: no public signature of its API names its types. */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(MetaRuntimeExtension.class);
    }
}
