package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The probe that finds a server's era: {@code server/discover} in the modern envelope, answered within the probe
 * bound ({@value #PROBE_BOUND_MS} ms, or the connect timeout when shorter). A {@code DiscoverResult} whose
 * {@code supportedVersions} lists {@code 2026-07-28} makes the server modern; anything else (an error of any code, an
 * answer that is not such a result, silence within the bound, an HTTP refusal) makes it legacy; a server process
 * that exits before it answers is told apart, as it must be started again. Stateless.
 */
public final class Discovery {

    /** The longest a server is given to answer the probe. */
    public static final long PROBE_BOUND_MS = 2000;
    /** The modern discovery method. */
    public static final String METHOD = "server/discover";

    private Discovery() {
    }

    /** What the probe found. */
    public sealed interface Outcome {
    }

    /** The server speaks {@code 2026-07-28}; {@code result} is its {@code DiscoverResult}. */
    public record Modern(JsonNode result) implements Outcome {
    }

    /**
     * The server is taken for a legacy one: {@code because} says why; {@code versions} are the protocol versions it
     * named (in {@code supportedVersions} or an error's {@code data.supported}), if any.
     */
    public record Legacy(String because, List<String> versions) implements Outcome {
    }

    /** The server process exited (or the server was lost) before it answered: {@code failure} says how. */
    public record Gone(McpBoundaryException failure) implements Outcome {
    }

    /** The bound of a probe within a connect timeout of {@code timeoutMs}. */
    public static long bound(long timeoutMs) {
        return Math.max(1, Math.min(PROBE_BOUND_MS, timeoutMs));
    }

    /**
     * Sends the probe through {@code window} (still in the legacy envelope), to be answered within {@code bound} ms
     * and by {@code deadline}, and classifies the answer.
     */
    public static CompletableFuture<Outcome> probe(CallWindow window, Envelope modern, long bound, long deadline) {
        Request r = window.create(Request.Kind.CONNECT, METHOD, "connect", null,
                modern.params(Json.MAPPER.createObjectNode(), null), bound,
                Math.min(deadline, window.now() + TimeUnit.MILLISECONDS.toNanos(bound)), null);
        window.submit(r);
        return r.future().handle((result, failure) -> {
            if (failure == null) {
                List<String> versions = versions(result == null ? null : result.get("supportedVersions"));
                if (result != null && result.isObject() && versions.contains(Envelope.MODERN_VERSION)) {
                    return new Modern(result);
                }
                return new Legacy("it answered server/discover with "
                        + Json.sample(String.valueOf(result), 200), versions);
            }
            Throwable cause = Failures.unwrap(failure);
            if (!(cause instanceof McpBoundaryException e)) {
                return new Legacy("the probe failed: " + cause, List.of());
            }
            if (window.termination() != null) {
                return new Gone(e);
            }
            if (e.error() instanceof McpBoundaryError.Timeout) {
                return new Legacy("it did not answer server/discover within " + bound + " ms", List.of());
            }
            JsonNode data = r.errorData();
            return new Legacy("it answered server/discover with: " + e.error().message(),
                    versions(data == null ? null : data.get("supported")));
        });
    }

    /** The strings of a JSON array of versions; empty for anything else. */
    public static List<String> versions(JsonNode array) {
        List<String> versions = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(v -> {
                if (v.isTextual()) {
                    versions.add(v.textValue());
                }
            });
        }
        return versions;
    }
}
