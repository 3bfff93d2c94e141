package org.metaruntime.langchain4j;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/** The {@code internal} package of meta-runtime-langchain4j stays internal: no public signature of its API names its types. */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        ApiBoundary.assertNoInternalTypes(MetaRuntimeToolProvider.class);
    }
}
