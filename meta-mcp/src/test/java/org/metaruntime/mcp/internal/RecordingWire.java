package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A wire to a server that is always alive and keeps every message written to it, parsed. Thread-safe. */
final class RecordingWire implements CallWindow.Wire {

    private final List<JsonNode> written = new CopyOnWriteArrayList<>();

    @Override
    public long write(String json) {
        try {
            written.add(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return 0;
    }

    @Override
    public boolean alive() {
        return true;
    }

    /** Every message written so far, in order. */
    List<JsonNode> written() {
        return written;
    }

    /** The messages written so far whose {@code method} is {@code method}. */
    List<JsonNode> method(String method) {
        return written.stream().filter(m -> method.equals(m.path("method").asText())).toList();
    }
}
