package org.metaruntime.benchmarks.eventlog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.eventlog.internal.QueryBuilder;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.UnifiedEvent;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The event log harness, for SQLite and (with {@code --pg <jdbc url>}) PostgreSQL:
 *
 * <ol>
 *   <li><b>Baseline</b>: the same rows inserted into the log's own tables (same schema and indexes) with plain
 *       JDBC: one single-row {@code INSERT} added to a batch per row, 4,096 rows per transaction, each envelope
 *       serialised in the loop, {@code seq} given: the straightforward synchronous way to write the same rows.
 *       The same with one commit per envelope (the first 2,000 rows) shows what group commit saves.
 *       Baseline and log alternate for {@code --rounds} rounds (default 3) on fresh tables, so that both see
 *       the same machine load.</li>
 *   <li><b>Append</b>: {@code N} envelopes appended from one thread as fast as it can (the queue holds them
 *       all, so none is dropped); the figure is {@code N} over the time from the first append until
 *       {@code flush} returns, i.e. what the writer thread sustains with group commit. The time per
 *       {@code append} call is what a producer pays.</li>
 *   <li><b>CPU</b>: the same two divided by the CPU time of the thread doing the writing (the benchmark thread
 *       for the baseline, {@code meta-eventlog-writer} for the log): on SQLite, which runs inside that thread,
 *       this is close to what one idle core sustains whatever the machine's load.</li>
 *   <li><b>Query</b>: pages of 100 over the {@code N} rows with various filters (median and 99th percentile of
 *       {@code R} runs each after warm-up); the unfiltered first page is the baseline.</li>
 * </ol>
 *
 * <pre>
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.eventlog.EventLogHarness \
 *     [--rows 1000000] [--repeat 300] [--rounds 3] [--max-batch n] [--explain] [--no-analyze]
 *     [--pg jdbc:postgresql://127.0.0.1:5432/bench?user=postgres] [--no-sqlite] [--queries-only]
 * </pre>
 */
public final class EventLogHarness {

    private static final int MODULES = 50;
    private static final int AGENTS = 20;
    private static final String[] MODULE_TYPES = {"tick", "mcp.ready", "progress", "result", "supervisor.warning",
            "router.resolved", "delivery.send", "log", "metric", "rare"};
    private static final String[] AGENT_TYPES = {"text_delta", "run_started", "run_completed", "tool_call_requested",
            "tool_result_received"};

    private EventLogHarness() {
    }

    public static void main(String[] args) throws Exception {
        int rows = 1_000_000;
        int repeat = 300;
        boolean analyze = true;
        int rounds = 3;
        int maxBatch = EventLogOptions.defaults().maxBatch();
        boolean explain = false;
        boolean sqlite = true;
        boolean queriesOnly = false;
        String pg = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--pg" -> pg = args[++i];
                case "--no-analyze" -> analyze = false;
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--max-batch" -> maxBatch = Integer.parseInt(args[++i]);
                case "--explain" -> explain = true;
                case "--no-sqlite" -> sqlite = false;
                case "--queries-only" -> queriesOnly = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "rows %,d, repeat %d, %d cores, load %.1f%n", rows, repeat,
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        List<EventEnvelope<UnifiedEvent>> envelopes = envelopes(rows);
        Path dir = Files.createTempDirectory("meta-eventlog-bench-");
        if (sqlite) {
            run("sqlite", sqlite(dir.resolve("baseline.sqlite3")), sqlite(dir.resolve("event_log.sqlite3")),
                    envelopes, repeat, analyze, rounds, maxBatch, explain);
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
        if (pg != null) {
            DataSource ds = postgres(pg);
            if (queriesOnly) {
                // The rows a previous run left in the database (same --rows): the query part alone.
                try (EventLog log = EventLogs.jdbc(ds, EventLogOptions.builder().instanceId("bench").build())) {
                    System.out.println("== postgresql, queries over the rows already there");
                    if (analyze) {
                        analyze(ds);
                    }
                    queries(log, envelopes.size(), repeat, explain ? ds : null, "postgresql");
                }
                return;
            }
            run("postgresql", ds, ds, envelopes, repeat, analyze, rounds, maxBatch, explain);
        }
    }

    private static void run(String name, DataSource baseline, DataSource logSource,
                            List<EventEnvelope<UnifiedEvent>> envelopes, int repeat, boolean analyze, int rounds,
                            int maxBatch, boolean explain) throws Exception {
        System.out.println("== " + name);
        dropTables(baseline);
        int single = Math.min(2_000, envelopes.size());
        double perRow = baselineInsert(baseline, envelopes.subList(0, single), 1);
        System.out.printf(Locale.ROOT, "one commit per envelope (%,d rows): %,.0f rows/s%n", single, perRow);
        for (int round = 1; round <= rounds; round++) {
            dropTables(baseline);
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            double floor = baselineInsert(baseline, envelopes, 4096);
            double floorCpu = envelopes.size() / ((THREADS.getCurrentThreadCpuTime() - cpu0) / 1e9);
            dropTables(baseline);
            dropTables(logSource);
            EventLogOptions options = EventLogOptions.builder().instanceId("bench")
                    .queueCapacity(envelopes.size() + 16).maxBatch(maxBatch).build();
            EventLog log = EventLogs.jdbc(logSource, options);
            long writer = threadId("meta-eventlog-writer");
            long writerCpu0 = THREADS.getThreadCpuTime(writer);
            long start = System.nanoTime();
            for (EventEnvelope<UnifiedEvent> envelope : envelopes) {
                log.append(envelope);
            }
            long appended = System.nanoTime();
            if (!log.flush(Duration.ofMinutes(30))) {
                throw new IllegalStateException("flush timed out");
            }
            long done = System.nanoTime();
            double rate = envelopes.size() / ((done - start) / 1e9);
            long writerCpu = THREADS.getThreadCpuTime(writer) - writerCpu0;
            double rateCpu = envelopes.size() / (writerCpu / 1e9);
            long checkpointer = threadId("meta-eventlog-checkpoint");
            long checkpointCpu = checkpointer < 0 ? 0 : THREADS.getThreadCpuTime(checkpointer);
            long gaps = log.query(EventQuery.builder().eventType(EventLog.GAP_EVENT_TYPE).build()).events().size();
            System.out.printf(Locale.ROOT, "round %d: baseline %,.0f rows/s; log append + group commit %,.0f"
                    + " envelopes/s sustained (%.2f x baseline); append() %.0f ns/call; gap rows %d; load %.1f%n",
                    round, floor, rate, rate / floor, (appended - start) / (double) envelopes.size(), gaps,
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf(Locale.ROOT, "round %d per CPU second of the writing thread: baseline %,.0f rows;"
                    + " log writer %,.0f envelopes (%.2f x); writer and checkpointer together %,.0f envelopes%n",
                    round, floorCpu, rateCpu, rateCpu / floorCpu,
                    envelopes.size() / ((writerCpu + checkpointCpu) / 1e9));
            if (round == rounds) {
                if (analyze) {
                    analyze(logSource);
                }
                queries(log, envelopes.size(), repeat, explain ? logSource : null, name);
            }
            log.close();
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /** The id of the live thread called {@code name}, or -1. */
    private static long threadId(String name) {
        for (java.lang.management.ThreadInfo info : THREADS.dumpAllThreads(false, false)) {
            if (info.getThreadName().equals(name)) {
                return info.getThreadId();
            }
        }
        return -1;
    }

    private static void dropTables(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (String table : new String[] {"event_log", "event_log_head", "mob_event"}) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static void queries(EventLog log, int rows, int repeat, DataSource explain, String dialect)
            throws Exception {
        long middle = rows / 2;
        Map<String, EventQuery> queries = new LinkedHashMap<>();
        queries.put("no filter, first page (baseline)", EventQuery.builder().build());
        queries.put("no filter, page after seq N/2", EventQuery.builder().afterSeq(middle).build());
        queries.put("module (1.6 %)", EventQuery.builder().module("module-7").build());
        queries.put("module, page after seq N/2", EventQuery.builder().module("module-7").afterSeq(middle).build());
        queries.put("module + event_type (0.16 %)", EventQuery.builder().module("module-7").eventType("progress")
                .build());
        queries.put("agent + event_type (0.2 %)", EventQuery.builder().agentId("agent-3").eventType("text_delta")
                .build());
        queries.put("event_type rare (0.08 %)", EventQuery.builder().eventType("rare").build());
        queries.put("source agent, time range 1 %", EventQuery.builder().source("agent")
                .fromMs(1_700_000_000_000L + middle).toMs(1_700_000_000_000L + middle + rows / 100).build());
        System.out.println("| query | rows | median ms | p99 ms | vs baseline |");
        double base = 0;
        for (Map.Entry<String, EventQuery> q : queries.entrySet()) {
            int got = 0;
            for (int i = 0; i < 30; i++) {
                got = log.query(q.getValue()).events().size();
            }
            double[] ms = new double[repeat];
            for (int i = 0; i < repeat; i++) {
                long t = System.nanoTime();
                log.query(q.getValue());
                ms[i] = (System.nanoTime() - t) / 1e6;
            }
            Arrays.sort(ms);
            double median = ms[repeat / 2];
            if (base == 0) {
                base = median;
            }
            System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.1f x |%n", q.getKey(), got, median,
                    ms[(int) Math.ceil(repeat * 0.99) - 1], median / base);
        }
        if (explain != null) {
            for (Map.Entry<String, EventQuery> q : queries.entrySet()) {
                System.out.println("plan of " + q.getKey() + ":");
                String prefix = dialect.equals("sqlite") ? "EXPLAIN QUERY PLAN " : "EXPLAIN (ANALYZE, BUFFERS) ";
                try (Connection c = explain.getConnection();
                     PreparedStatement p = QueryBuilder.eventsSql(q.getValue()).prepare(c, prefix);
                     java.sql.ResultSet rs = p.executeQuery()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        System.out.println("    " + rs.getString(columns));
                    }
                }
            }
        }
    }

    private static List<EventEnvelope<UnifiedEvent>> envelopes(int n) {
        List<EventEnvelope<UnifiedEvent>> out = new ArrayList<>(n);
        JsonNodeFactory f = JsonNodeFactory.instance;
        for (int i = 0; i < n; i++) {
            long ts = 1_700_000_000_000L + i;
            if (i % 5 == 4) {
                out.add(EventEnvelope.agent("e" + i, ts, "agent-" + (i / 5 % AGENTS),
                        AGENT_TYPES[i / 100 % AGENT_TYPES.length], f.objectNode().put("delta", "some text " + i)));
            } else {
                String type = i % 1250 == 0 ? "rare" : MODULE_TYPES[i / 50 % (MODULE_TYPES.length - 1)];
                out.add(EventEnvelope.module("e" + i, ts, "module-" + (i % MODULES), type,
                        f.objectNode().put("i", i).put("status", "ok")));
            }
        }
        return out;
    }

    private static double baselineInsert(DataSource ds, List<EventEnvelope<UnifiedEvent>> envelopes,
                                         int rowsPerCommit) throws Exception {
        EventLogs.jdbc(ds, EventLogOptions.builder().instanceId("bench").build()).close(); // the log's schema
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            long start = System.nanoTime();
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO event_log (seq, instance_id, logged_ms,"
                    + " event_id, source, timestamp_ms, module, agent_id, event_type, envelope)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < envelopes.size(); i++) {
                    EventEnvelope<UnifiedEvent> e = envelopes.get(i);
                    UnifiedEvent event = e.event();
                    insert.setLong(1, i + 1);
                    insert.setString(2, "bench");
                    insert.setLong(3, 0);
                    insert.setString(4, e.eventId());
                    insert.setString(5, e.source());
                    insert.setLong(6, e.timestampMs());
                    insert.setString(7, event instanceof UnifiedEvent.Module m ? m.event().module() : null);
                    insert.setString(8, event instanceof UnifiedEvent.Agent a ? a.agentId() : null);
                    insert.setString(9, event.eventType());
                    insert.setString(10, EventCodec.toJson(e));
                    insert.addBatch();
                    if ((i + 1) % rowsPerCommit == 0) {
                        insert.executeBatch();
                        c.commit();
                    }
                }
                insert.executeBatch();
                c.commit();
            }
            double rate = envelopes.size() / ((System.nanoTime() - start) / 1e9);
            c.setAutoCommit(true);
            return rate;
        }
    }

    private static void analyze(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("ANALYZE");
        }
    }

    private static DataSource sqlite(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(30_000);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file);
        return ds;
    }

    private static DataSource postgres(String url) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(url);
        return ds;
    }
}
