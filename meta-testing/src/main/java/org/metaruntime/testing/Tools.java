package org.metaruntime.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Programs the tests need from {@code PATH} ({@code node}, {@code npm}, {@code gcc}, ...). A missing one fails the
 * test: the tests that need it must run wherever the suite runs, never skip silently. Thread-safe.
 *
 * <pre>{@code
 * String node = Tools.required("node");
 * }</pre>
 */
public final class Tools {

    private Tools() {
    }

    /** The absolute path of the executable {@code name} on {@code PATH}; fails when there is none. */
    public static String required(String name) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        throw new AssertionError(name + " is required by the tests but is not on PATH (.ci/run installs it)");
    }
}
