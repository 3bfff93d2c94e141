package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The checks of {@link EventQuery} and {@link EventFilter}: an impossible page is refused, not answered empty. */
class EventQueryTest {

    @Test
    void aTimeRangeThatEndsBeforeItStartsIsRefused() {
        assertThatThrownBy(() -> EventQuery.builder().fromMs(2_000).toMs(1_000).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fromMs must not be after toMs: 2000 > 1000");
        assertThatThrownBy(() -> new EventFilter(null, null, null, null, 5, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(EventQuery.builder().fromMs(1_000).toMs(1_000).build().filter().fromMs()).isEqualTo(1_000);
        assertThat(EventQuery.builder().fromMs(1_000).build().filter().toMs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void negativeBoundsPageSizesAndSequencesAreRefused() {
        assertThatThrownBy(() -> EventQuery.builder().fromMs(-1).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventQuery.builder().limit(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventQuery.builder().afterSeq(-1).build()).isInstanceOf(IllegalArgumentException.class);
    }
}
