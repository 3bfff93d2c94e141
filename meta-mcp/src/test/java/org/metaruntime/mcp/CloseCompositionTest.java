package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.mcp.internal.SessionPeer;
import org.metaruntime.supervisor.StopLadder;

class CloseCompositionTest {

    private static final McpBoundaryError STEP = new McpBoundaryError.ToolCallFailed("m", "t", "boom");
    private static final McpBoundaryError CLOSE = new McpBoundaryError.CloseFailed("m", "stuck");

    @Test
    void composesStepAndCloseOutcomes() {
        assertThat(McpPerCall.compose(null, null)).isNull();
        assertThat(McpPerCall.compose(null, CLOSE)).isEqualTo(CLOSE);
        assertThat(McpPerCall.compose(STEP, null)).isEqualTo(STEP);
        assertThat(McpPerCall.compose(STEP, CLOSE)).isEqualTo(new McpBoundaryError.OperationFailedWithCloseFailure(STEP, CLOSE));
    }

    @Test
    void theStopLadderIsShortenedToFitTheCloseTimeout() {
        StopLadder ladder = StopLadder.defaults();
        assertThat(SessionPeer.Stdio.fit(ladder, Duration.ofSeconds(10))).isEqualTo(ladder);
        StopLadder fitted = SessionPeer.Stdio.fit(ladder, Duration.ofSeconds(3));
        long total = fitted.stdinGrace().toMillis() + fitted.termGrace().toMillis() + fitted.killWait().toMillis();
        assertThat(total).isLessThanOrEqualTo(2700);
        assertThat(fitted.stdinGrace()).isEqualTo(fitted.termGrace());
    }
}
