package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.metaruntime.examples.internal.TextTable;
import org.junit.jupiter.api.Test;

class TextTableTest {

    @Test
    void columnsAreAlignedUnderARule() {
        String table = new TextTable("module", "state").row("text-tools", "Healthy").row("a", null).render();

        assertThat(table).isEqualTo(""
                + "  module      state\n"
                + "  ----------  -------\n"
                + "  text-tools  Healthy\n"
                + "  a\n");
    }

    @Test
    void longCellsAreCutAndLineBreaksFlattened() {
        String table = new TextTable("payload").row("x".repeat(200)).row("two\nlines").render();

        assertThat(table.lines()).contains("  " + "x".repeat(TextTable.MAX_CELL - 1) + "…", "  two lines");
    }

    @Test
    void aRowMustHaveOneCellPerColumn() {
        assertThatThrownBy(() -> new TextTable("a", "b").row("only one"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 2 cells, got 1");
    }
}
