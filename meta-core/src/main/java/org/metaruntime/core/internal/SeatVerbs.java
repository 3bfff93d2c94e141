package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.metaruntime.core.ToolRole;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;

/** Which seats' verbs the tools of modules implement, read from their names ({@link ToolRole}). Stateless. */
public final class SeatVerbs {

    private SeatVerbs() {
    }

    /** Seat to its verbs (each sorted) among {@code tools}; empty when none is a seat verb. */
    public static Map<String, List<String>> ofTools(Collection<String> tools) {
        Map<String, List<String>> seats = new TreeMap<>();
        for (String tool : tools) {
            if (ToolRole.of(tool) instanceof ToolRole.SeatVerb sv) {
                seats.computeIfAbsent(sv.seat(), s -> new ArrayList<>()).add(sv.verb());
            }
        }
        seats.values().forEach(Collections::sort);
        seats.replaceAll((seat, verbs) -> List.copyOf(verbs));
        return Collections.unmodifiableMap(seats);
    }

    /**
     * Seat to module id to verbs, over the {@code mcp.ready} events of the modules {@code registry} has loaded (an
     * event-line module, or a module without a ready event, implements none).
     */
    public static Map<String, Map<String, List<String>>> ofModules(ModuleRegistry registry) {
        Map<String, Map<String, List<String>>> seats = new TreeMap<>();
        for (String id : registry.loaded()) {
            ModuleSlot slot = registry.require(id);
            EventEnvelope<UnifiedEvent> ready = slot.readyEvent();
            if (ready == null || !(ready.event() instanceof UnifiedEvent.Module module)
                    || !"mcp.ready".equals(module.event().eventType())) {
                continue;
            }
            List<String> tools = new ArrayList<>();
            for (JsonNode name : module.event().payload().path("tools")) {
                tools.add(name.asText());
            }
            ofTools(tools).forEach((seat, verbs) ->
                    seats.computeIfAbsent(seat, s -> new TreeMap<>()).put(slot.id(), verbs));
        }
        seats.replaceAll((seat, modules) -> Collections.unmodifiableMap(modules));
        return Collections.unmodifiableMap(seats);
    }
}
