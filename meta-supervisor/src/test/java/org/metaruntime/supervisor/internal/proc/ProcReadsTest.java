package org.metaruntime.supervisor.internal.proc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcReadsTest {

    private static final long PID_MAX = 32_768;

    private final ProcReads reads = new ProcReads(pid -> null, () -> new long[0], pid -> null);

    /**
     * A pid behind the allocator (handed out before the read) comes round again only after the allocator wrapped:
     * the token is trusted while the forks since the read cannot have taken it that far.
     */
    @Test
    void aKnownTokenIsTrustedUntilTheAllocatorCouldHaveComeRound() {
        // Allocator at 20,000 when the token of 5,000 was read, 1,000 tasks alive: 5,000 is handed out again at
        // the earliest 12,768 + 4,700 = 17,468 steps later.
        reads.rememberToken(5_000, 77, "other", new ProcReads.Counters(0, 20_000, 100_000, 1_000));

        assertThat(reads.tokenUnlessReused(5_000, 100_000, PID_MAX)).isEqualTo("other");
        assertThat(reads.tokenUnlessReused(5_000, 100_000 + 8_233, PID_MAX)).isEqualTo("other");
        assertThat(reads.tokenUnlessReused(5_000, 100_000 + 8_234, PID_MAX)).as("2 * 8,234 + 1,000 = 17,468").isNull();
    }

    /** A pid just ahead of the allocator (handed out before its last wrap) may come again after a few forks. */
    @Test
    void aPidJustAheadOfTheAllocatorIsNotTrustedForLong() {
        reads.rememberToken(20_050, 77, "other", new ProcReads.Counters(0, 20_000, 100_000, 10));

        assertThat(reads.tokenUnlessReused(20_050, 100_019, PID_MAX)).isEqualTo("other");
        assertThat(reads.tokenUnlessReused(20_050, 100_020, PID_MAX)).as("2 * 20 + 10 = 50").isNull();
    }

    @Test
    void withoutCountersOrAReadNothingIsTrusted() {
        assertThat(reads.tokenUnlessReused(5_000, 100_000, PID_MAX)).as("never read").isNull();
        reads.rememberToken(5_000, 77, "other", null);
        assertThat(reads.tokenUnlessReused(5_000, 100_000, PID_MAX)).as("no counters").isNull();
        reads.rememberToken(5_000, 77, "other", new ProcReads.Counters(0, -1, 100_000, 10));
        assertThat(reads.tokenUnlessReused(5_000, 100_000, PID_MAX)).as("no last pid").isNull();
        reads.rememberToken(5_000, 77, "other", new ProcReads.Counters(0, 20_000, 100_000, 10));
        assertThat(reads.tokenUnlessReused(5_000, -1, PID_MAX)).as("no fork count now").isNull();
    }
}
