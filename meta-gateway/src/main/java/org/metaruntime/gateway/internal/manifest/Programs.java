package org.metaruntime.gateway.internal.manifest;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a pod's program (its command's first word) can be run as the process layer runs it: a name with a
 * {@code /} is a path, relative to the pod's working directory; any other name is looked up on the gateway's own
 * {@code PATH}. Either way it must be a regular file the gateway may execute. Stateless.
 */
final class Programs {

    private Programs() {
    }

    /**
     * What is wrong with running {@code program} in {@code workdir} with {@code path} (the value of {@code PATH}, may be
     * null), as the end of a sentence ({@code "python4" is not found on PATH}); empty when it can be run.
     */
    static Optional<String> problem(String program, Path workdir, String path) {
        if (program.contains("/")) {
            Path file;
            try {
                file = workdir.resolve(program).normalize();
            } catch (InvalidPathException e) {
                return Optional.of("\"" + program + "\" is not a valid path: " + e.getReason());
            }
            if (!Files.exists(file)) {
                return Optional.of("\"" + program + "\" does not exist (" + file + ")");
            }
            return runnable(program, file);
        }
        Path notExecutable = null;
        for (String dir : (path == null ? "" : path).split(File.pathSeparator, -1)) {
            Path candidate;
            try {
                candidate = (dir.isEmpty() ? workdir : workdir.resolve(dir)).resolve(program);
            } catch (InvalidPathException e) {
                continue;
            }
            if (Files.isRegularFile(candidate)) {
                if (Files.isExecutable(candidate)) {
                    return Optional.empty();
                }
                notExecutable = notExecutable == null ? candidate : notExecutable;
            }
        }
        return Optional.of("\"" + program + "\" is not found on PATH"
                + (notExecutable == null ? "" : " (" + notExecutable + " is there, but not executable)"));
    }

    private static Optional<String> runnable(String program, Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.of("\"" + program + "\" is not a program (" + file + " is a directory or a device)");
        }
        if (!Files.isExecutable(file)) {
            return Optional.of("\"" + program + "\" is not executable (" + file
                    + "): chmod +x it, or run it with its interpreter, like [\"python3\", \"" + program + "\"]");
        }
        return Optional.empty();
    }
}
