package org.metaruntime.gateway.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The whole-number options of the command line: {@code --port} and {@code --max-call-depth}. */
class NumberOptionsTest {

    private static CommandLine parse(String... args) throws CommandLine.UsageException {
        String[] all = new String[args.length + 2];
        all[0] = "--manifests";
        all[1] = "m";
        System.arraycopy(args, 0, all, 2, args.length);
        return CommandLine.parse(all);
    }

    @Test
    void theBoundsAreAccepted() throws Exception {
        assertThat(parse("--port", "0").port()).isZero();
        assertThat(parse("--port", "65535").port()).isEqualTo(65535);
        assertThat(parse("--max-call-depth", "1").maxCallDepth()).isEqualTo(1);
    }

    @Test
    void anythingElseIsAUsageErrorNamingTheOptionAndTheValue() {
        for (String port : new String[] {"-1", "65536", "http", "1.5", ""}) {
            assertThatThrownBy(() -> parse("--port", port)).isInstanceOf(CommandLine.UsageException.class)
                    .hasMessage("--port must be 0 to 65535, not " + port);
        }
        for (String depth : new String[] {"0", "-3", "two", "99999999999"}) {
            assertThatThrownBy(() -> parse("--max-call-depth", depth)).isInstanceOf(CommandLine.UsageException.class)
                    .hasMessage("--max-call-depth must be a whole number of at least 1, not " + depth);
        }
    }
}
