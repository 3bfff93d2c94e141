package org.metaruntime.module.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Writes one JSON message per line, UTF-8, flushed, one writer at a time. After a failed write (the reader went
 * away) it drops every later message and says so once on the log. Thread-safe.
 */
final class LineWriter {

    private final OutputStream out;
    private final ObjectMapper json;
    private final PrintStream log;
    private boolean broken;

    LineWriter(OutputStream out, ObjectMapper json, PrintStream log) {
        this.out = out;
        this.json = json;
        this.log = log;
    }

    void write(JsonNode message) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(message);
        } catch (IOException e) {
            log.println("cannot encode an answer: " + e.getMessage());
            return;
        }
        synchronized (this) {
            if (broken) {
                return;
            }
            try {
                out.write(bytes);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                broken = true;
                log.println("stdout is closed, answers are dropped from now on: " + e.getMessage());
            }
        }
    }
}
