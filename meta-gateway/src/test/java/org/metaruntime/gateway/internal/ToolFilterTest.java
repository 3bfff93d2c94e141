package org.metaruntime.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.ToolFilter;

/** The globs of {@code includeTools} and {@code excludeTools}. */
class ToolFilterTest {

    @Test
    void withoutGlobsEveryToolIsServed() {
        assertThat(ToolFilter.ALL.serves("anything.at all")).isTrue();
        assertThat(ToolFilter.ALL.isAll()).isTrue();
    }

    @Test
    void includeKeepsTheMatchesAndExcludeWins() {
        ToolFilter filter = new ToolFilter(List.of("read_*", "list_?", "exact"), List.of("*_secret"));
        assertThat(filter.serves("read_file")).isTrue();
        assertThat(filter.serves("read_")).isTrue();
        assertThat(filter.serves("list_a")).isTrue();
        assertThat(filter.serves("list_ab")).isFalse();
        assertThat(filter.serves("exact")).isTrue();
        assertThat(filter.serves("exactly")).isFalse();
        assertThat(filter.serves("write_file")).isFalse();
        assertThat(filter.serves("read_secret")).isFalse();
    }

    @Test
    void excludeAloneServesTheRest() {
        ToolFilter filter = new ToolFilter(List.of(), List.of("delete*", "fs.write"));
        assertThat(filter.serves("read")).isTrue();
        assertThat(filter.serves("deleteAll")).isFalse();
        assertThat(filter.serves("fs.write")).isFalse();
        assertThat(filter.serves("fsXwrite")).as("a dot is itself, not any character").isTrue();
    }

    @Test
    void regexCharactersInAGlobAreThemselves() {
        ToolFilter filter = new ToolFilter(List.of("a+b", "(x)|y", "[z]"), List.of());
        assertThat(filter.serves("a+b")).isTrue();
        assertThat(filter.serves("aab")).isFalse();
        assertThat(filter.serves("(x)|y")).isTrue();
        assertThat(filter.serves("y")).isFalse();
        assertThat(filter.serves("[z]")).isTrue();
        assertThat(filter.serves("z")).isFalse();
    }
}
