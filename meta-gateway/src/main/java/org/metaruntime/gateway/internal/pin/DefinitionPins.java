package org.metaruntime.gateway.internal.pin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.internal.contract.DefinitionHash;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.OnDrift;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.pipeline.DefinitionCheck;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pins of the tools the gateway serves, and whether each tool's live definition still matches its pin. A declared
 * tool's {@code pin} is its explicit pin; every other tool of a pod that speaks MCP is pinned on first use (recorded
 * with a {@code gateway.tool_pinned} event, and read back from the event log at startup). Each time the gateway gets a
 * pod's tool list, {@link #observe} compares each definition with its pin: a drift is blocked (the tool is not served
 * and a call to it is answered -31002) or warned of, by the tool's {@code onDrift}, and logged once per distinct
 * definition with a {@code gateway.tool_drift} event. Thread-safe.
 */
public final class DefinitionPins implements DefinitionCheck {

    private static final Logger log = LoggerFactory.getLogger(DefinitionPins.class);

    /** The code of a call to a tool whose definition drifted from its pin when {@code onDrift} is {@code block}. */
    public static final int DRIFT_CODE = -31002;

    /** A drift found: the pin, the live hash (null: an explicitly pinned tool missing from the list), the action. */
    public record Drift(String expected, String found, boolean explicit, OnDrift action) {
    }

    /** What the status shows of a tool: its live hash (or null), its pin (or null) and its drift (or null). */
    public record Seen(String definitionHash, String pin, OnDrift drift) {
    }

    private final PinLog events;
    private final Map<PinKey, String> tofu = new ConcurrentHashMap<>();
    private final Map<PinKey, String> live = new ConcurrentHashMap<>();
    private final Map<PinKey, Drift> drifts = new ConcurrentHashMap<>();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /** Pins recorded in {@code events} (when it has a log) are read back now. */
    public DefinitionPins(PinLog events) {
        this.events = events;
        this.tofu.putAll(events.recorded());
        if (!tofu.isEmpty()) {
            log.info("{} tool pin(s) read back from the event log", tofu.size());
        }
    }

    /**
     * Compares the tools {@code pod} lists now with their pins, pinning those that have none yet.
     *
     * @return whether the set of blocked tools changed
     */
    public synchronized boolean observe(PodManifest pod, List<ObjectNode> tools) {
        if (pod.isBare()) {
            return false;
        }
        Set<PinKey> before = blocked(pod.name());
        Set<String> listed = new HashSet<>();
        for (ObjectNode tool : tools) {
            String name = tool.path("name").asText("");
            if (name.isEmpty()) {
                continue;
            }
            listed.add(name);
            PinKey key = new PinKey(pod.name(), name);
            String hash;
            try {
                hash = DefinitionHash.of(tool);
            } catch (IllegalArgumentException e) {
                log.warn("pod {}: tool \"{}\" has no definition hash: {}", pod.name(), name, e.getMessage());
                continue;
            }
            live.put(key, hash);
            String explicit = pod.pin(name);
            String expected = explicit != null ? explicit : tofu.get(key);
            if (expected == null) {
                tofu.put(key, hash);
                ObjectNode payload = JsonRpc.NODES.objectNode().put("pod", pod.name()).put("tool", name).put("definition_hash", hash);
                payload.set("definition", DefinitionHash.hashed(tool));
                events.append(pod.name(), PinLog.PINNED, payload);
                log.debug("pod {}: tool \"{}\" pinned on first use ({})", pod.name(), name, hash);
                drifts.remove(key);
            } else if (expected.equals(hash)) {
                drifts.remove(key);
            } else {
                drifted(pod, key, new Drift(expected, hash, explicit != null, pod.onDrift(name, explicit != null)));
            }
        }
        for (DeclaredTool declared : pod.tools()) {
            if (declared.pin() != null && !listed.contains(declared.name())) {
                PinKey key = new PinKey(pod.name(), declared.name());
                live.remove(key);
                drifted(pod, key, new Drift(declared.pin(), null, true, pod.onDrift(declared.name(), true)));
            }
        }
        return !before.equals(blocked(pod.name()));
    }

    private void drifted(PodManifest pod, PinKey key, Drift drift) {
        drifts.put(key, drift);
        String found = drift.found() == null ? "(missing from its tool list)" : drift.found();
        if (reported.add(key.pod() + '\u0000' + key.tool() + '\u0000' + drift.found())) {
            ObjectNode payload = JsonRpc.NODES.objectNode().put("pod", key.pod()).put("tool", key.tool())
                    .put("expected", drift.expected());
            if (drift.found() == null) {
                payload.putNull("found");
            } else {
                payload.put("found", drift.found());
            }
            payload.put("pin", drift.explicit() ? "manifest" : "tofu").put("action", drift.action().wire());
            events.append(pod.name(), PinLog.DRIFT, payload);
            if (drift.action() == OnDrift.BLOCK) {
                log.warn("pod {}: tool \"{}\" is not served: its definition changed (expected {}, found {}); approve it with"
                        + " --approve {}/{} or update its pin", key.pod(), key.tool(), drift.expected(), found, key.pod(), key.tool());
            } else {
                log.warn("pod {}: tool \"{}\": its definition changed (expected {}, found {}); it is still served",
                        key.pod(), key.tool(), drift.expected(), found);
            }
        }
    }

    private Set<PinKey> blocked(String pod) {
        Set<PinKey> out = new HashSet<>();
        drifts.forEach((key, drift) -> {
            if (key.pod().equals(pod) && drift.action() == OnDrift.BLOCK) {
                out.add(key);
            }
        });
        return out;
    }

    /** The names of {@code pod}'s tools that are not served now (blocked by a drift), in name order. */
    public List<String> blockedTools(String pod) {
        return blocked(pod).stream().map(PinKey::tool).sorted().toList();
    }

    /** Whether {@code pod}'s tool {@code tool} is not served now (its definition drifted and it is blocked). */
    public boolean blocked(String pod, String tool) {
        Drift drift = drifts.get(new PinKey(pod, tool));
        return drift != null && drift.action() == OnDrift.BLOCK;
    }

    @Override
    public Optional<RpcException> check(String pod, String podTool) {
        Drift drift = drifts.get(new PinKey(pod, podTool));
        if (drift == null || drift.action() != OnDrift.BLOCK) {
            return Optional.empty();
        }
        ObjectNode data = JsonRpc.NODES.objectNode().put("pod", pod).put("tool", podTool).put("expected", drift.expected());
        if (drift.found() == null) {
            data.putNull("found");
        } else {
            data.put("found", drift.found());
        }
        return Optional.of(new RpcException(DRIFT_CODE, "pod " + pod + " tool " + podTool + ": definition changed: expected "
                + drift.expected() + ", found " + drift.found(), data));
    }

    /** What the status shows of {@code pod}'s tool {@code tool}; {@code declared} is its declaration, or null. */
    public Seen seen(PodManifest pod, String tool, DeclaredTool declared) {
        PinKey key = new PinKey(pod.name(), tool);
        String hash = live.get(key);
        if (hash == null && declared != null) {
            hash = declared.definitionHash();
        }
        String pin = pod.isBare() ? null : Optional.ofNullable(pod.pin(tool)).orElse(tofu.get(key));
        Drift drift = drifts.get(key);
        return new Seen(hash, pin, drift == null ? null : drift.action());
    }

    /**
     * The definition hash of {@code pod}'s tool {@code tool} as the status shows it (what {@code expect.definition_hash}
     * is compared with): the live one once the pod listed it, else the declared one; null when neither is known.
     */
    public String definitionHash(PodManifest pod, String tool) {
        DeclaredTool declared = pod.tools().stream().filter(t -> t.name().equals(tool)).findFirst().orElse(null);
        return seen(pod, tool, declared).definitionHash();
    }

    @Override
    public Optional<String> liveHash(String pod, String tool) {
        return Optional.ofNullable(live.get(new PinKey(pod, tool)));
    }

    /** The pin on first use of {@code pod}'s tool {@code tool}, or null. */
    public String tofuPin(String pod, String tool) {
        return tofu.get(new PinKey(pod, tool));
    }

    /** Takes {@code hash} as the pin of {@code pod}'s tool {@code tool} from now on (an approval). */
    public synchronized void approve(String pod, String tool, String hash) {
        PinKey key = new PinKey(pod, tool);
        tofu.put(key, hash);
        if (hash.equals(live.get(key))) {
            drifts.remove(key);
        }
    }
}
