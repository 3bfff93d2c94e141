package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.contract.DefinitionHash;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.pin.PinKey;
import org.metaruntime.gateway.internal.pin.PinLog;
import org.metaruntime.supervisor.internal.Failures;

/**
 * Approves a tool's live definition: starts its pod alone, lists its tools, records the definition as the tool's pin
 * (a {@code gateway.tool_approved} event) and stops the pod. Stateless.
 */
public final class Approval {

    /** Why a tool could not be approved; its message says what to do. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private Approval() {
    }

    /**
     * Records the live definition of {@code pod}'s tool {@code tool} as its pin.
     *
     * @return the definition hash recorded
     * @throws Refused when the pod is not declared or speaks bare JSON-RPC, cannot start, does not list the tool, or
     *                 the tool has an explicit pin in its manifest
     */
    public static String approve(Catalog catalog, GatewayOptions options, PinLog pins, String pod, String tool) {
        PodManifest manifest = catalog.pod(pod).orElseThrow(() -> new Refused("no pod " + pod + " is declared"));
        if (manifest.isBare()) {
            throw new Refused("pod " + pod + " speaks bare JSON-RPC: its tools are not pinned");
        }
        Catalog alone = new Catalog(List.of(manifest), List.of(), catalog.separator());
        List<ObjectNode> tools;
        PodSet pods = PodBackends.create(alone, options, List.of());
        try {
            PodBackend.Pod running = pods.pod(pod);
            try {
                running.start().get(manifest.startupTimeout().toMillis() + 5000, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                Throwable cause = Failures.unwrap(e);
                throw new Refused("pod " + pod + " could not start: " + cause.getMessage());
            } catch (TimeoutException e) {
                throw new Refused("pod " + pod + " did not start within " + manifest.startupTimeout().toSeconds() + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Refused("interrupted while pod " + pod + " started");
            }
            tools = running.liveTools();
        } finally {
            pods.close();
        }
        ObjectNode live = tools.stream().filter(t -> t.path("name").asText("").equals(tool)).findFirst()
                .orElseThrow(() -> new Refused("pod " + pod + " does not list a tool \"" + tool + "\""));
        String hash = DefinitionHash.of(live);
        String explicit = manifest.pin(tool);
        if (explicit != null) {
            throw new Refused("pod " + pod + " tool " + tool + " has an explicit pin in " + manifest.file()
                    + ": set its pin to " + hash + " (the live definition) to approve it");
        }
        String previous = pins.recorded().get(new PinKey(pod, tool));
        pins.approved(pod, tool, hash, previous);
        return hash;
    }
}
