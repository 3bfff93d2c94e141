package org.metaruntime.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/** The starter's {@code internal} package stays internal: no public or protected API signature names its types. */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        assertThat(ApiBoundary.violations(MetaRuntimeProperties.class, "org.metaruntime.spring")).isEmpty();
    }
}
