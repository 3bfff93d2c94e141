package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metaruntime.core.internal.SeatVerbs;

class ToolRoleTest {

    @Test
    void aNameWithOneDotBetweenTwoLowercasePartsIsASeatVerb() {
        assertThat(ToolRole.of("files.read")).isEqualTo(new ToolRole.SeatVerb("files", "read"));
        assertThat(ToolRole.of("a.b")).isEqualTo(new ToolRole.SeatVerb("a", "b"));
        assertThat(ToolRole.of("blob-store.put_all-2")).isEqualTo(new ToolRole.SeatVerb("blob-store", "put_all-2"));
        assertThat(new ToolRole.SeatVerb("files", "read").toolName()).isEqualTo("files.read");
    }

    @ParameterizedTest
    @ValueSource(strings = {"read_file", "files.read.all", "Files.read", "files.Read", ".read", "files.", "1files.read",
            "files.2read", "files..read", "_files.read", "files._read", "-a.b", "files read", "files.read ", "",
            "fïles.read", "files/read"})
    void anyOtherNameIsTheModulesOwnTool(String name) {
        assertThat(ToolRole.of(name)).isEqualTo(new ToolRole.Own());
    }

    @Test
    void aSeatVerbIsValidated() {
        assertThatThrownBy(() -> new ToolRole.SeatVerb("Files", "read")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ToolRole.SeatVerb("files", "a.b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ToolRole.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void seatsGroupTheirVerbsSorted() {
        assertThat(SeatVerbs.ofTools(List.of("text.upper", "echo", "files.read", "text.lower", "a.b.c")))
                .isEqualTo(Map.of("files", List.of("read"), "text", List.of("lower", "upper")));
        assertThat(SeatVerbs.ofTools(List.of("echo", "read_file"))).isEmpty();
    }
}
