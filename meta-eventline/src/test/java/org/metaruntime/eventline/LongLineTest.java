package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * A 100 MB first line. Runs in its own surefire fork with {@code -Xmx256m} (see the module's pom), so a
 * runtime that buffered the line would fail with an OutOfMemoryError instead of LineTooLong.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LongLineTest {

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();

    @Test
    void hundredMegabyteLineIsLineTooLongWithinASmallHeap() {
        assertThat(Runtime.getRuntime().maxMemory()).as("this test must run with -Xmx256m")
                .isLessThanOrEqualTo(256L << 20);
        ProcessSpec spec = fixtures.module("huge_line").build();

        EventLineException e = catchThrowableOfType(EventLineException.class,
                () -> EventLineRunner.create().runOnce(spec, Duration.ofSeconds(60)));

        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(new EventLineError.Process(
                new ProcessBoundaryError.LineTooLong(spec.maxLineBytes())));
        assertThat(spec.maxLineBytes()).isEqualTo(16 << 20);
        fixtures.assertStarted(1, 0);
    }
}
