package org.metaruntime.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The real python3 interpreter for tests that spawn Python fixtures. Thread-safe.
 *
 * <pre>{@code
 * ProcessSpec spec = ProcessSpec.builder("m").command(Python.executable(), script.toString()).build();
 * }</pre>
 */
public final class Python {

    private static String executable;

    private Python() {
    }

    /**
     * The interpreter's own path ({@code sys.executable}), not a shim on {@code PATH} that may need the host's
     * environment. When python3 is missing the test fails if the {@code CI} variable is set (CI must run every
     * test), and is aborted (skipped) otherwise.
     */
    public static synchronized String executable() {
        if (executable == null) {
            executable = resolve();
        }
        return executable;
    }

    private static String resolve() {
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            probe.getOutputStream().close();
            String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0 && !out.isEmpty()) {
                return out;
            }
            probe.destroyForcibly();
            return missing("python3 failed: " + out);
        } catch (IOException e) {
            return missing("python3 is not on PATH: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String missing(String why) {
        if (System.getenv("CI") != null) {
            Assertions.fail(why + " (required when CI is set)");
        }
        Assumptions.abort(why);
        return null;
    }
}
