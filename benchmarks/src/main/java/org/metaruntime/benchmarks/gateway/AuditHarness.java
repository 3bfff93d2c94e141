package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.pipeline.ArgumentDigest;
import org.metaruntime.gateway.internal.pipeline.AuditLog;
import org.metaruntime.gateway.internal.pipeline.CallRecorder;
import org.metaruntime.gateway.spi.CallOutcome;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.gateway.spi.Principal;

/**
 * The gateway's audit on the SQLite event log: {@code T} threads answer {@code N} calls at {@code R} calls per second
 * in all (paced; {@code --rate 0}: as fast as they can), each
 * handing its call to the recorder exactly as the pipeline's record stage does (a record made on the recorder's
 * thread: the arguments' canonical JSON hashed, the {@code gateway.call} payload built, the envelope appended to the
 * log, whose writer commits in groups). Figures: audited calls per second, from the first call until every event is
 * committed ({@code flush}); what handing a call over costs the answering thread, against the same loop with no
 * listener (audit off); and the rows in the file (none may be missing).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.AuditHarness [--calls 200000] [--threads 4]
 *     [--rate 20000]
 * </pre>
 */
public final class AuditHarness {

    private AuditHarness() {
    }

    public static void main(String[] args) throws Exception {
        int calls = 200_000;
        int threads = 4;
        int rate = 20_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("query", "repo:metaruntime/meta-runtime is:open")
                .put("limit", 50).put("page", 3);
        arguments.putArray("labels").add("bug").add("gateway");
        Principal principal = new Principal("alice", "tokens", List.of("support"), Map.of());

        double off = handOver(new CallRecorder(List.of()), calls, threads, rate, arguments, principal)[0];
        Path dir = Files.createTempDirectory("audit-harness");
        EventLog log = EventLogs.persistentState(dir);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        AtomicLong listenerCpu = new AtomicLong();
        AtomicLong delivered = new AtomicLong();
        CallRecorder recorder = new CallRecorder(List.of(new AuditLog(log, System::currentTimeMillis), record -> {
            if (delivered.incrementAndGet() % 1000 == 0) {
                listenerCpu.set(mx.getCurrentThreadCpuTime());
            }
        }));
        long start = System.nanoTime();
        double[] on = handOver(recorder, calls, threads, rate, arguments, principal);
        recorder.close();
        boolean flushed = log.flush(Duration.ofMinutes(5));
        double seconds = (System.nanoTime() - start) / 1e9;
        long writerCpu = 0;
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            if (t.getKey().getName().startsWith("meta-eventlog")) {
                writerCpu += Math.max(0, mx.getThreadCpuTime(t.getKey().getId()));
            }
        }
        log.close();
        long rows = count(dir.resolve("event_log.sqlite3"), "gateway.call");
        long gaps = count(dir.resolve("event_log.sqlite3"), EventLog.GAP_EVENT_TYPE);
        System.out.printf(Locale.ROOT, "calls %d, threads %d, paced at %d calls/s, flushed %s%n", calls, threads, rate, flushed);
        System.out.printf(Locale.ROOT, "audited calls/s (first call to last commit): %,.0f%n", calls / seconds);
        System.out.printf(Locale.ROOT, "hand-over per call on the answering thread: audit off %.0f ns, audit on %.0f ns%n", off, on[0]);
        System.out.printf(Locale.ROOT, "answering threads' rate: audit on %,.0f calls/s%n", on[1]);
        System.out.printf(Locale.ROOT, "gateway.call rows %d of %d, gap rows %d%n", rows, calls, gaps);
        System.out.printf(Locale.ROOT, "CPU per audited call: recorder thread %.1f us, event log threads %.1f us;"
                + " calls per CPU second of both: %,.0f%n", listenerCpu.get() / 1e3 / delivered.get(), writerCpu / 1e3 / rows,
                1e9 / (listenerCpu.get() / (double) delivered.get() + writerCpu / (double) rows));
    }

    /** Runs the calls; returns the mean hand-over time in ns and the answering threads' rate in calls/s. */
    private static double[] handOver(CallRecorder recorder, int calls, int threads, int rate, JsonNode arguments,
                                     Principal principal) throws InterruptedException {
        long intervalNanos = rate <= 0 ? 0 : 1_000_000_000L * threads / rate;
        AtomicLong handOverNanos = new AtomicLong();
        AtomicLong ids = new AtomicLong();
        List<Thread> running = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int share = calls / threads + (t < calls % threads ? 1 : 0);
            Thread thread = new Thread(() -> {
                long spent = 0;
                long due = System.nanoTime();
                for (int i = 0; i < share; i++) {
                    if (intervalNanos > 0) {
                        due += intervalNanos;
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                    }
                    String id = "c" + ids.incrementAndGet();
                    long before = System.nanoTime();
                    recorder.record(() -> {
                        ArgumentDigest digest = ArgumentDigest.of(arguments);
                        return new CallRecord(id, null, principal, "support", "github__search", "github", "search",
                                digest.sha256(), digest.bytes(), CallOutcome.OK, null, 3, List.of("github.search"),
                                "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", null);
                    });
                    spent += System.nanoTime() - before;
                }
                handOverNanos.addAndGet(spent);
            }, "answering-" + t);
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new double[] {(double) handOverNanos.get() / calls, calls / seconds};
    }

    private static long count(Path file, String eventType) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM event_log WHERE event_type = '" + eventType + "'")) {
            return r.next() ? r.getLong(1) : 0;
        }
    }
}
