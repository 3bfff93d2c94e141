package org.metaruntime.eventlog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.testing.PostgresServer;

/**
 * A child JVM that appends to a log: {@code sqlite <file> <instance> <count>} or {@code jdbc <url> <instance>
 * <count>} ({@code count} 0: until killed). It waits for a line on stdin, then appends envelopes
 * {@code <instance>-<i>} in rounds of 100, printing {@code committed <n>} once the first {@code n} are
 * committed, and {@code done} after a clean close.
 */
public final class LogChild {

    private LogChild() {
    }

    public static void main(String[] args) throws Exception {
        String instance = args[2];
        long count = Long.parseLong(args[3]);
        EventLogOptions options = EventLogOptions.builder().instanceId(instance).build();
        EventLog log = args[0].equals("sqlite") ? EventLogs.sqlite(Path.of(args[1]), options)
                : EventLogs.jdbc(PostgresServer.dataSource(args[1]), options);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("ready");
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (long i = 0; count == 0 || i < count; ) {
            for (int k = 0; k < 100 && (count == 0 || i < count); k++, i++) {
                log.append(EventEnvelope.module(instance + "-" + i, System.currentTimeMillis(), instance, "tick",
                        JsonNodeFactory.instance.objectNode().put("i", i).put("text", "ümlaut ✓")));
            }
            if (!log.flush(Duration.ofSeconds(60))) {
                throw new IllegalStateException("flush timed out");
            }
            out.println("committed " + i);
        }
        log.close();
        out.println("done");
    }
}
