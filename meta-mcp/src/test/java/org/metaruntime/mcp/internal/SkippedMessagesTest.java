package org.metaruntime.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.internal.manual.ManualClock;

/** The log of skipped messages counts between entries, at most one entry per interval after the first. */
class SkippedMessagesTest {

    private final ManualClock clock = new ManualClock();
    private final SkippedMessages skipped = new SkippedMessages("m", "line", "lines", clock::nanoTime,
            Duration.ofSeconds(10));

    @Test
    void theFirstIsLoggedThenCountedUntilTheIntervalPasses() {
        skipped.skipped("bad", "first");
        assertThat(skipped.untold()).isZero();
        for (int i = 0; i < 1000; i++) {
            skipped.skipped("bad", "line " + i);
        }
        assertThat(skipped.untold()).isEqualTo(1000);
        clock.advance(Duration.ofSeconds(9));
        skipped.skipped("bad", "still counted");
        assertThat(skipped.untold()).isEqualTo(1001);
        clock.advance(Duration.ofSeconds(1));
        skipped.skipped("bad", "reported with the rest");
        assertThat(skipped.untold()).isZero();
        skipped.skipped("bad", "counted again");
        assertThat(skipped.untold()).isEqualTo(1);
        skipped.flush();
        assertThat(skipped.untold()).isZero();
    }

    @Test
    void samplesAreCutAndTheirControlCharactersEscaped() {
        String sample = Json.sample("\u001b[31mred\r" + "x".repeat(500), SkippedMessages.SAMPLE_CHARS);
        assertThat(sample).startsWith("\\u001b[31mred\\u000d").endsWith("... (509 chars)").doesNotContain("\u001b", "\r");
        assertThat(sample.length()).isLessThan(SkippedMessages.SAMPLE_CHARS + 40);
    }
}
