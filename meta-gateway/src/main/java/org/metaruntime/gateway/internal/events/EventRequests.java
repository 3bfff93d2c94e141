package org.metaruntime.gateway.internal.events;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventProjection;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;

/**
 * The query parameters of the event endpoints and the JSON of their answers. A bad parameter is an
 * {@link IllegalArgumentException} whose message is the answer's {@code error}. Stateless.
 */
final class EventRequests {

    /** The parameters of {@code /meta/events} and its stream. */
    static final Set<String> EVENT_PARAMETERS = Set.of("source", "module", "agent", "event_type", "from_ms", "to_ms",
            "after_seq", "limit");
    /** The parameters of {@code /meta/mob_events} and its stream. */
    static final Set<String> MOB_PARAMETERS = Set.of("mob_id", "kind", "run_id", "after_cursor", "limit");

    private static final JsonFactory JSON = new JsonFactory();

    private EventRequests() {
    }

    /**
     * The query of an events request; on a stream, {@code Last-Event-ID} (a {@code seq}) takes the place of
     * {@code after_seq}.
     */
    static EventQuery events(Request request, boolean stream) {
        Fields fields = parameters(request, EVENT_PARAMETERS);
        EventQuery.Builder query = EventQuery.builder().afterSeq(number(fields, "after_seq", 0, 0));
        String source = text(fields, "source");
        String module = text(fields, "module");
        String agent = text(fields, "agent");
        String eventType = text(fields, "event_type");
        if (source != null) {
            query.source(source);
        }
        if (module != null) {
            query.module(module);
        }
        if (agent != null) {
            query.agentId(agent);
        }
        if (eventType != null) {
            query.eventType(eventType);
        }
        long from = number(fields, "from_ms", 0, 0);
        long to = number(fields, "to_ms", Long.MAX_VALUE, 0);
        if (from > to) {
            throw new IllegalArgumentException("from_ms must not be after to_ms: " + from + " > " + to);
        }
        query.fromMs(from).toMs(to).limit((int) number(fields, "limit", EventQuery.DEFAULT_LIMIT, 1));
        if (stream) {
            Long last = lastEventId(request, 0);
            if (last != null) {
                query.afterSeq(last);
            }
        }
        try {
            return query.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("afterSeq", "after_seq"), e);
        }
    }

    /** The query of a mob events request; on a stream, {@code Last-Event-ID} (a cursor) takes the place of {@code after_cursor}. */
    static MobEventQuery mobEvents(Request request, boolean stream) {
        Fields fields = parameters(request, MOB_PARAMETERS);
        long after = number(fields, "after_cursor", -1, -1);
        if (stream) {
            Long last = lastEventId(request, -1);
            if (last != null) {
                after = last;
            }
        }
        try {
            return new MobEventQuery(text(fields, "mob_id"), text(fields, "kind"), text(fields, "run_id"), after,
                    (int) number(fields, "limit", EventQuery.DEFAULT_LIMIT, 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("afterCursor", "after_cursor"), e);
        }
    }

    /** {@code {"events":[{"seq":N,"instance_id":"...","envelope":{...}}],"next_after_seq":N|null}}. */
    static String page(EventPage page) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("events");
            for (LoggedEvent row : page.events()) {
                row(g, row);
            }
            g.writeEndArray();
            nullableNumber(g, "next_after_seq", page.nextAfterSeq());
            g.writeEndObject();
        });
    }

    /** {@code {"events":[{"cursor":N,"envelope":{...}}],"next_after_cursor":N|null}}. */
    static String page(MobEventPage page) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("events");
            for (MobStructuralEventEnvelope event : page.events()) {
                g.writeStartObject();
                g.writeNumberField("cursor", event.cursor());
                g.writeFieldName("envelope");
                g.writeRawValue(MobEventProjection.toJson(event));
                g.writeEndObject();
            }
            g.writeEndArray();
            nullableNumber(g, "next_after_cursor", page.nextAfterCursor());
            g.writeEndObject();
        });
    }

    /** {@code {"error":"..."}}. */
    static String error(String message) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("error", message);
            g.writeEndObject();
        });
    }

    private static void row(JsonGenerator g, LoggedEvent row) throws IOException {
        g.writeStartObject();
        g.writeNumberField("seq", row.seq());
        g.writeStringField("instance_id", row.instanceId());
        g.writeFieldName("envelope");
        g.writeRawValue(row.json()); // the stored text, byte for byte
        g.writeEndObject();
    }

    private static void nullableNumber(JsonGenerator g, String name, Long value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }

    private static Fields parameters(Request request, Set<String> known) {
        Fields fields = Request.extractQueryParameters(request);
        for (String name : fields.getNames()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown parameter " + name + "; the parameters are "
                        + known.stream().sorted().toList());
            }
            List<String> values = fields.getValues(name);
            if (values.size() > 1) {
                throw new IllegalArgumentException("parameter " + name + " is given " + values.size() + " times");
            }
        }
        return fields;
    }

    private static String text(Fields fields, String name) {
        String value = fields.getValue(name);
        if (value != null && value.isEmpty()) {
            throw new IllegalArgumentException("parameter " + name + " is empty");
        }
        return value;
    }

    private static long number(Fields fields, String name, long absent, long min) {
        String value = fields.getValue(name);
        if (value == null) {
            return absent;
        }
        long n = parse(value, name);
        if (n < min) {
            throw new IllegalArgumentException("parameter " + name + " must be at least " + min + ": " + value);
        }
        if (name.equals("limit") && n > EventQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("parameter limit must be at most " + EventQuery.MAX_LIMIT + ": " + value);
        }
        return n;
    }

    private static Long lastEventId(Request request, long min) {
        String value = request.getHeaders().get("Last-Event-ID");
        if (value == null || value.isBlank()) {
            return null;
        }
        long n = parse(value.strip(), "Last-Event-ID");
        if (n < min) {
            throw new IllegalArgumentException("Last-Event-ID must be at least " + min + ": " + value);
        }
        return n;
    }

    private static long parse(String value, String name) {
        if (!value.matches("-?[0-9]{1,19}")) {
            throw new IllegalArgumentException(name + " is not an integer: " + value);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a 64-bit integer: " + value, e);
        }
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
