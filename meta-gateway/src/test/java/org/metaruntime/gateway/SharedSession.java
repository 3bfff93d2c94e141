package org.metaruntime.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One client session whose steps several tests share, so that a class starts one gateway (and one client) for
 * scenarios that do not disturb each other. Each test adds its part before the session runs and reads back a view
 * of the session holding only its own steps, numbered from 0; the rest of the result (logs, stderr, counters) is
 * the whole session's.
 */
final class SharedSession {

    private final List<ObjectNode> steps = new ArrayList<>();
    private final Map<String, int[]> parts = new LinkedHashMap<>();
    private JsonNode session;

    /** Adds the part {@code name}: its steps run after every part added before. */
    SharedSession part(String name, List<ObjectNode> partSteps) {
        if (session != null) {
            throw new IllegalStateException("the session has run");
        }
        parts.put(name, new int[] {steps.size(), steps.size() + partSteps.size()});
        steps.addAll(partSteps);
        return this;
    }

    /** Every part's steps, in order. */
    List<ObjectNode> steps() {
        return List.copyOf(steps);
    }

    /** Records what the client printed for {@link #steps()}. */
    void ran(JsonNode result) {
        session = result;
    }

    /** The session as {@code name}'s steps saw it. */
    JsonNode of(String name) {
        int[] range = parts.get(name);
        if (range == null || session == null) {
            throw new IllegalStateException("no part '" + name + "' in a session that ran");
        }
        ObjectNode view = session.deepCopy();
        ArrayNode own = view.putArray("steps");
        JsonNode all = session.get("steps");
        for (int i = range[0]; i < range[1] && i < all.size(); i++) {
            own.add(all.get(i));
        }
        return view;
    }
}
