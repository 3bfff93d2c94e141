package org.metaruntime.gateway;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * libfaketime (Debian package {@code faketime}): the environment that starts a process whose clock is off by a
 * fixed offset ({@code LD_PRELOAD} of {@code libfaketime.so.1}, {@code FAKETIME="+2s"}), wall clock and monotonic
 * clock alike, so the process sees time pass at the normal rate from a different origin.
 */
final class Faketime {

    private static final Path LIBRARIES = Path.of("/usr/lib");
    private static final String LIBRARY = "faketime/libfaketime.so.1";

    private Faketime() {
    }

    /** The installed library ({@code /usr/lib/<arch>/faketime/libfaketime.so.1}), if any. */
    static Optional<Path> library() {
        try (Stream<Path> arches = Files.list(LIBRARIES)) {
            return arches.map(arch -> arch.resolve(LIBRARY)).filter(Files::isRegularFile).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Fails under CI ({@code CI} set) and skips elsewhere when libfaketime is not installed. */
    static void require() {
        boolean found = library().isPresent();
        if (!found && System.getenv("CI") != null) {
            fail("libfaketime (" + LIBRARIES + "/<arch>/" + LIBRARY + ") is required by the clock skew tests under CI"
                    + " (.ci/run installs faketime)");
        }
        assumeTrue(found, "libfaketime is not installed");
    }

    /** The environment of a process whose clock is {@code offset} ({@code "+2s"}, {@code "-2s"}) off the real one. */
    static Map<String, String> env(String offset) {
        require();
        return Map.of("LD_PRELOAD", library().orElseThrow().toString(), "FAKETIME", offset);
    }
}
