package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs in its own JVM with {@code -Xmx256m} and a non-UTF-8 platform charset (see the module's pom): a 100 MB
 * line is discarded without buffering it, and decoding never depends on the platform charset.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeLineForkedTest {

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    @Test
    @Timeout(120)
    void aHundredMegabyteLineIsDiscardedWithinASmallHeap() {
        assertThat(Runtime.getRuntime().maxMemory()).isLessThanOrEqualTo(256L * 1024 * 1024);
        ModuleProcess process = fixtures.start(fixtures.spec("huge", "big_line", "100").build(), listener);
        ProcessExit exit = process.exitFuture().join();
        assertThat(exit.exitCode()).isZero();
        listener.exit.join();
        assertThat(listener.events).containsExactly("tooLong:" + ProcessSpec.DEFAULT_MAX_LINE_BYTES,
                "oversized:" + 100L * 1024 * 1024, "line:after", "closed", "exit:0");
    }

    @Test
    @Timeout(60)
    void linesAreUtf8WhateverThePlatformCharset() {
        assertThat(Charset.defaultCharset().name()).isEqualTo("ISO-8859-1");
        ModuleProcess process = fixtures.start(fixtures.spec("latin", "invalid_utf8").build(), listener);
        process.exitFuture().join();
        assertThat(listener.lines).containsExactly("a\uFFFDb", "\uFFFD(", "cut \uFFFD", "caf\u00e9 \u2713");
        listener.lines.clear();
        fixtures.start(fixtures.spec("latin-emoji", "split_emoji").build(), listener).exitFuture().join();
        assertThat(listener.lines).containsExactly("smile \uD83D\uDE00");
    }
}
