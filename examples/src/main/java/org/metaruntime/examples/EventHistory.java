package org.metaruntime.examples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.examples.internal.TextTable;

/** The demo's tables of events: the runtime's merged events, and what the durable event log holds across runs. */
final class EventHistory {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final PrintStream out;
    private final Path stateDir;

    EventHistory(PrintStream out, Path stateDir) {
        this.out = out;
        this.stateDir = stateDir;
    }

    /** One row per merged envelope: time, source, module or agent, event type, payload. */
    void printMerged(List<EventEnvelope<UnifiedEvent>> events) {
        TextTable table = new TextTable("time (UTC)", "source", "module / agent", "event type", "payload");
        for (EventEnvelope<UnifiedEvent> envelope : events) {
            UnifiedEvent event = envelope.event();
            Object payload = event instanceof UnifiedEvent.Module module ? module.event().payload()
                    : ((UnifiedEvent.Agent) event).payload();
            table.row(time(envelope), envelope.source(), who(event), event.eventType(),
                    payload == null ? "" : payload.toString());
        }
        out.print(table.render());
    }

    /** How many events earlier runs wrote to {@code log}, and the last such run's final events. */
    void printEarlierRuns(EventLog log) {
        Map<String, Integer> perRun = new LinkedHashMap<>();
        List<LoggedEvent> lastRun = new ArrayList<>();
        String[] lastInstance = {null};
        forEachRow(log, row -> {
            if (row.instanceId().equals(log.instanceId())) {
                return;
            }
            perRun.merge(row.instanceId(), 1, Integer::sum);
            if (!row.instanceId().equals(lastInstance[0])) {
                lastInstance[0] = row.instanceId();
                lastRun.clear();
            }
            lastRun.add(row);
        });
        if (perRun.isEmpty()) {
            out.println("  No earlier run wrote to this log: run the demo again to see this run's events read back.");
            return;
        }
        out.printf("  %d earlier run(s) logged %d events. The last one's final events, read back from the log:%n",
                perRun.size(), perRun.values().stream().mapToInt(Integer::intValue).sum());
        TextTable table = new TextTable("seq", "time (UTC)", "written by", "module / agent", "event type");
        for (LoggedEvent row : lastRun.subList(Math.max(0, lastRun.size() - 8), lastRun.size())) {
            EventEnvelope<UnifiedEvent> envelope = row.envelope();
            table.row(row.seq(), time(envelope), row.instanceId(), who(envelope.event()), envelope.event().eventType());
        }
        out.print(table.render());
    }

    /** Commits {@code log} and says how many events this run wrote to it. */
    void printThisRun(EventLog log, Duration flushTimeout) {
        if (!log.flush(flushTimeout)) {
            throw new Demo.DemoException("the event log did not commit within " + flushTimeout.toSeconds() + " s");
        }
        long[] mine = {0};
        forEachRow(log, row -> {
            if (row.instanceId().equals(log.instanceId())) {
                mine[0]++;
            }
        });
        out.printf("  This run (%s) has %d events in %s; the next run shows them.%n", log.instanceId(), mine[0],
                stateDir.resolve("event_log.sqlite3"));
    }

    /** Every row of {@code log}, page by page, in {@code seq} order. */
    private static void forEachRow(EventLog log, Consumer<LoggedEvent> action) {
        EventQuery query = EventQuery.builder().limit(EventQuery.MAX_LIMIT).build();
        EventPage page = log.query(query);
        while (true) {
            page.events().forEach(action);
            if (page.nextAfterSeq() == null) {
                return;
            }
            page = log.query(query.withAfterSeq(page.nextAfterSeq()));
        }
    }

    private static String who(UnifiedEvent event) {
        return event instanceof UnifiedEvent.Module module ? module.event().module()
                : ((UnifiedEvent.Agent) event).agentId();
    }

    private static String time(EventEnvelope<UnifiedEvent> envelope) {
        return CLOCK.format(Instant.ofEpochMilli(envelope.timestampMs()));
    }
}
