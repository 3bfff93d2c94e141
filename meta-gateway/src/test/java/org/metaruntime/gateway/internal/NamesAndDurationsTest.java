package org.metaruntime.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.Durations;
import org.metaruntime.gateway.internal.manifest.Names;

class NamesAndDurationsTest {

    @Test
    void durations() {
        assertThat(Durations.parse("500ms")).contains(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).contains(Duration.ofSeconds(30));
        assertThat(Durations.parse("2m")).contains(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).contains(Duration.ofHours(1));
        assertThat(Durations.parse("0s")).isEmpty();
        assertThat(Durations.parse("1.5s")).isEmpty();
        assertThat(Durations.parse("-1s")).isEmpty();
        assertThat(Durations.parse("30")).isEmpty();
        assertThat(Durations.parse("30 s")).isEmpty();
        assertThat(Durations.parse("1d")).isEmpty();
    }

    @Test
    void clientNames() {
        assertThat(Names.clientSafe("my-tools__my_tool9")).isTrue();
        assertThat(Names.clientSafe("a".repeat(64))).isTrue();
        assertThat(Names.clientSafe("a".repeat(65))).isFalse();
        assertThat(Names.clientSafe("my.tool")).isFalse();
        assertThat(Names.clientSafe("")).isFalse();
        assertThat(Names.clientSafe("日本")).isFalse();
        assertThat(Names.validSeparator("__")).isTrue();
        assertThat(Names.validSeparator(".")).isFalse();
        assertThat(Names.validSeparator("")).isFalse();
    }
}
