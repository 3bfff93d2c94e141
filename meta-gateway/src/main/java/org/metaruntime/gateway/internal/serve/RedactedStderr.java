package org.metaruntime.gateway.internal.serve;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The command's log with the pods' secrets hidden: once installed, every line printed to {@code System.err} (where the
 * command's logging writes, the runtime's loggers included: a pod's stderr lines at debug, its stderr tail when it
 * dies) has each secret of the pods served so far replaced by {@value Redaction#MARK}. Thread-safe.
 */
public final class RedactedStderr {

    private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();
    private static volatile Redaction redaction = Redaction.NONE;
    private static volatile boolean installed;

    private RedactedStderr() {
    }

    /** Wraps {@code System.err} (once). */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        PrintStream original = System.err;
        System.setErr(new PrintStream(original, true, StandardCharsets.UTF_8) {
            @Override
            public void println(String line) {
                super.println(redaction.apply(line));
            }

            @Override
            public void print(String text) {
                super.print(redaction.apply(text));
            }

            @Override
            public void println(Object value) {
                println(String.valueOf(value));
            }
        });
    }

    /** Hides {@code values} from now on (each of at least {@value Redaction#MIN_LENGTH} characters). */
    static void hide(Collection<String> values) {
        if (SECRETS.addAll(values)) {
            redaction = Redaction.of(SECRETS);
        }
    }
}
