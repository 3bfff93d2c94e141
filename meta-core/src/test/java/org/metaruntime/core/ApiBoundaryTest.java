package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ApiBoundary;

/**
 * The {@code internal} packages of meta-core stay internal: no public or protected signature of its API (the fakes of
 * {@code org.metaruntime.core.testing} included) names one of their types.
 */
class ApiBoundaryTest {

    @Test
    void apiSignaturesNameNoInternalType() {
        assertThat(ApiBoundary.violations(ModuleRouteError.class, "org.metaruntime.core")).isEmpty();
    }
}
