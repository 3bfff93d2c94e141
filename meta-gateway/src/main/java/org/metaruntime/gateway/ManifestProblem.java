package org.metaruntime.gateway;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One problem found in a manifest or config file: where it is and what is wrong. {@link #toString()} is the
 * {@code file:line: message} line that {@code --validate} prints.
 *
 * <pre>{@code
 * ValidationReport report = MetaGateway.builder().manifests(Path.of("manifests")).validate();
 * report.problems().forEach(System.out::println);   // manifests/a.yaml:7: unknown key "comand" in spec
 * }</pre>
 *
 * @param file    the file, as given (relative when the folder was given relative)
 * @param line    the 1-based line
 * @param message one sentence, without the location
 */
public record ManifestProblem(Path file, int line, String message) {

    public ManifestProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        if (line < 1) {
            throw new IllegalArgumentException("line must be >= 1: " + line);
        }
    }

    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}
