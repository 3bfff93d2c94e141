package org.metaruntime.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApiBoundaryTest {

    @Test
    void findsEverySignatureThatNamesAnInternalType() {
        List<String> violations = ApiBoundary.violations(org.metaruntime.testing.fixture.leaky.Api.class,
                "org.metaruntime.testing.fixture.leaky");

        String api = "org.metaruntime.testing.fixture.leaky.Api";
        String hidden = ": org.metaruntime.testing.fixture.leaky.internal.Hidden";
        String inherited = "org.metaruntime.testing.fixture.leaky.Inheriting (inherited from"
                + " org.metaruntime.testing.fixture.leaky.Base)";
        assertThat(violations).containsExactlyInAnyOrder(
                api + " extends" + hidden,
                api + " implements" + hidden,
                api + ".field" + hidden,
                api + ".wildcard" + hidden,
                api + ".<init> parameter" + hidden,
                api + ".get() returns" + hidden,
                api + ".bounded() <T>" + hidden,
                api + ".bounded() parameter" + hidden,
                api + ".array() returns" + hidden,
                api + "$Nested.nested() returns" + hidden,
                inherited + ".inherited() returns" + hidden,
                inherited + ".local() returns: org.metaruntime.testing.fixture.leaky.Local (not public)");
    }

    @Test
    void passesWhenInternalTypesStayBehindTheApi() {
        ApiBoundary.assertNoInternalTypes(org.metaruntime.testing.fixture.clean.Api.class);
    }

    @Test
    void failsWithTheListOfViolations() {
        assertThatThrownBy(() -> ApiBoundary.assertNoInternalTypes(org.metaruntime.testing.fixture.leaky.Api.class))
                .isInstanceOf(AssertionError.class).hasMessageContaining("leaky.Api.field");
    }

    @Test
    void aCheckThatFindsNoApiTypeFails() {
        assertThatThrownBy(() -> ApiBoundary.violations(ApiBoundaryTest.class, "org.metaruntime.nothing.here"))
                .isInstanceOf(AssertionError.class);
    }
}
