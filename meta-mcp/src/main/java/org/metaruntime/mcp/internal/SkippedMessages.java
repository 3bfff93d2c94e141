package org.metaruntime.mcp.internal;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of what a server wrote that the connection skipped (stdout lines that are not JSON-RPC messages, lines over
 * the size limit, HTTP messages that are not JSON-RPC), bounded whatever the server writes: the first one is logged
 * at WARN with its reason and a sample; after it, at most one WARN per {@link #INTERVAL} counts the ones skipped since
 * and shows the latest; {@link #flush()} logs the count not yet told when the session ends. Samples and reasons are cut
 * to a bounded length with control characters escaped, so a log entry costs a bounded amount whatever the line.
 * Thread-safe.
 *
 * <pre>{@code
 * SkippedMessages skipped = new SkippedMessages("search", "a stdout line that is not a JSON-RPC message",
 *         "stdout lines that are not JSON-RPC messages");
 * skipped.skipped("not a JSON object", line);
 * skipped.flush(); // at the end of the session
 * }</pre>
 */
public final class SkippedMessages {

    /** The shortest time between two log entries after the first. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);
    /** The longest sample of a skipped message, in characters. */
    static final int SAMPLE_CHARS = 120;
    /** The longest reason logged, in characters. */
    static final int REASON_CHARS = 160;

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

    private final String moduleId;
    private final String one;
    private final String many;
    private final LongSupplier ticker;
    private final long intervalNanos;
    private boolean logged; // guarded by this
    private long lastLogged; // guarded by this: when the last entry was logged, on the ticker
    private long untold; // guarded by this: skipped since the last entry
    private String latestReason; // guarded by this
    private String latestSample; // guarded by this

    /**
     * Skipped messages of {@code moduleId}, named {@code one} (singular, with its article: "a stdout line ...") and
     * {@code many} (plural) in the log.
     */
    public SkippedMessages(String moduleId, String one, String many) {
        this(moduleId, one, many, Scheduler.shared()::nanoTime, INTERVAL);
    }

    /** Like {@link #SkippedMessages(String, String, String)}, with time read on {@code ticker} (nanoseconds). */
    SkippedMessages(String moduleId, String one, String many, LongSupplier ticker, Duration interval) {
        this.moduleId = moduleId;
        this.one = one;
        this.many = many;
        this.ticker = ticker;
        this.intervalNanos = interval.toNanos();
    }

    /** A message was skipped for {@code reason}; {@code message} is what the server wrote (only a sample is kept). */
    public synchronized void skipped(String reason, String message) {
        long now = ticker.getAsLong();
        String cutReason = firstLine(reason);
        String sample = Json.sample(message, SAMPLE_CHARS);
        if (!logged) {
            logged = true;
            lastLogged = now;
            LOG.warn("module '{}': skipped {} ({}): {} (more are counted and reported at most once every {} s)",
                    moduleId, one, cutReason, sample, INTERVAL.toSeconds());
            return;
        }
        untold++;
        latestReason = cutReason;
        latestSample = sample;
        if (now - lastLogged >= intervalNanos) {
            report(now);
        }
    }

    /** Logs how many were skipped since the last entry, if any (the session ends: no later entry would tell). */
    public synchronized void flush() {
        if (untold > 0) {
            report(ticker.getAsLong());
        }
    }

    /** How many were skipped and not yet reported (for tests). */
    synchronized long untold() {
        return untold;
    }

    private void report(long now) {
        LOG.warn("module '{}': skipped {} more: {} in the last {} s; the latest ({}): {}", moduleId, untold,
                untold == 1 ? one : many, Math.max(1, Duration.ofNanos(now - lastLogged).toSeconds()), latestReason,
                latestSample);
        untold = 0;
        lastLogged = now;
        latestReason = null;
        latestSample = null;
    }

    private static String firstLine(String reason) {
        if (reason == null) {
            return "unknown reason";
        }
        int end = reason.indexOf('\n');
        return Json.sample(end < 0 ? reason : reason.substring(0, end), REASON_CHARS);
    }
}
