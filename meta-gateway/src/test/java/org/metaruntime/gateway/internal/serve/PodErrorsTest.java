package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure.Kind;
import org.metaruntime.supervisor.ModuleHealthState;

class PodErrorsTest {

    private static CompletionException unavailable() {
        return new CompletionException(new ModuleRouteException("broken",
                new ModuleRouteError.ModuleUnavailable("broken", ModuleHealthState.RESTARTING)));
    }

    @Test
    void aPodUnavailableAfterItsStartForThisCallFailedIsAStartFailure() {
        assertThat(PodErrors.map(unavailable(), true).kind()).isEqualTo(Kind.START_FAILED);
    }

    @Test
    void aPodUnavailableForACallThatStartedNothingIsUnavailable() {
        assertThat(PodErrors.map(unavailable(), false).kind()).isEqualTo(Kind.UNAVAILABLE);
    }
}
