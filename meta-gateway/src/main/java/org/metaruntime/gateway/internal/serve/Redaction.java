package org.metaruntime.gateway.internal.serve;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.supervisor.internal.Failures;

/**
 * Hides secrets in what the gateway relays from a pod (its stderr tail, its failures' messages): every occurrence of
 * a manifest's {@code env} or {@code headers} value, or of a credential of the gateway, of at least
 * {@value #MIN_LENGTH} characters, becomes {@value #MARK}. Immutable and thread-safe.
 */
final class Redaction {

    /** What a secret is replaced by. */
    static final String MARK = "[redacted]";
    /** Shorter values are not hidden (they would hide ordinary words and numbers). */
    static final int MIN_LENGTH = 4;

    static final Redaction NONE = new Redaction(List.of());

    /** The values, longest first (a secret that contains another is hidden whole). */
    private final List<String> secrets;

    private Redaction(List<String> secrets) {
        this.secrets = secrets;
    }

    /** Hides {@code values} (those of at least {@value #MIN_LENGTH} characters). */
    static Redaction of(Collection<String> values) {
        Set<String> kept = new LinkedHashSet<>();
        for (String value : values) {
            if (value != null && value.length() >= MIN_LENGTH) {
                kept.add(value);
            }
        }
        List<String> sorted = new ArrayList<>(kept);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return new Redaction(List.copyOf(sorted));
    }

    /** The values of {@code pod}'s manifest that are secrets: its {@code env} and {@code headers} values, as resolved. */
    static List<String> secretsOf(PodManifest pod) {
        List<String> values = new ArrayList<>(pod.env().values());
        values.addAll(pod.headers().values());
        return values;
    }

    /** {@code text} with every secret replaced by {@value #MARK}; null stays null. */
    String apply(String text) {
        if (text == null || text.isEmpty() || secrets.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : secrets) {
            if (out.contains(secret)) {
                out = out.replace(secret, MARK);
            }
        }
        return out;
    }

    /** {@code failure} with its message and stderr tail redacted (the same failure when nothing was hidden). */
    PodBackend.PodFailure apply(PodBackend.PodFailure failure) {
        String message = apply(failure.getMessage());
        String tail = apply(failure.stderrTail());
        if (java.util.Objects.equals(message, failure.getMessage()) && tail.equals(failure.stderrTail())) {
            return failure;
        }
        return new PodBackend.PodFailure(failure.kind(), message, failure.exitCode(), tail, failure.errorCode(), failure.errorData());
    }

    /** {@code error} redacted when it is (or wraps) a pod's failure; otherwise as it is. */
    Throwable apply(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        return cause instanceof PodBackend.PodFailure failure ? apply(failure) : error;
    }

    /** {@code state} with its last error and stderr tail redacted. */
    PodBackend.PodState apply(PodBackend.PodState state) {
        return new PodBackend.PodState(state.state(), state.pid(), state.restarts(), apply(state.lastError()), apply(state.stderrTail()));
    }
}
