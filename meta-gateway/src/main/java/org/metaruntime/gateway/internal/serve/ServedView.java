package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.internal.pin.DefinitionPins;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.spi.Principal;

/**
 * What a running gateway serves, as one principal may see it: its pods with their state and counts, its tools with
 * their hashes, drift and the profiles that may call them. Read by the operator console. Thread-safe.
 */
public final class ServedView {

    /**
     * One pod now.
     *
     * @param state      {@code idle}, {@code starting}, {@code healthy}, {@code restarting}, {@code failed} or {@code stopped}
     * @param era        the protocol revision its process speaks, null when it is not running or speaks bare JSON-RPC
     */
    public record PodView(String name, String state, OptionalLong pid, int restarts, String lastError, String stderrTail,
                          long callsServed, long callsFailed, String era) {
    }

    /**
     * One served tool.
     *
     * @param contractId     null when it declares no contract
     * @param definitionHash the live hash once the pod listed its tools, else the declared one; null when unknown
     * @param drift          null, {@code warn} or {@code block}
     * @param profiles       the policy's profiles that may call it ({@code all} when there is no policy)
     */
    public record ToolView(String outward, String pod, String tool, String description, String contractId,
                           String contractVersion, String schemaHash, String definitionHash, String pin, String drift,
                           List<String> profiles) {
    }

    private final ToolTable table;
    private final PodBackend backend;
    private final PodStats stats;
    private final Access access;
    private final DefinitionPins pins;

    ServedView(ToolTable table, PodBackend backend, PodStats stats, Access access, DefinitionPins pins) {
        this.table = table;
        this.backend = backend;
        this.stats = stats;
        this.access = access;
        this.pins = pins;
    }

    /** The pods {@code principal} sees, in name order. */
    public List<PodView> pods(Principal principal) {
        Visibility visible = Visibility.of(principal, access, table);
        List<PodView> out = new ArrayList<>();
        for (PodManifest manifest : table.catalog().pods()) {
            if (!visible.pod(manifest.name())) {
                continue;
            }
            PodBackend.Pod pod = backend.pod(manifest.name());
            PodBackend.PodState state = pod.state();
            out.add(new PodView(manifest.name(), consoleState(state.state()), state.pid(), state.restarts(),
                    state.lastError() == null || state.lastError().isEmpty() ? null : state.lastError(),
                    state.stderrTail() == null ? "" : state.stderrTail(), stats.servedOf(manifest.name()),
                    stats.failedOf(manifest.name()), pod.running() ? pod.era() : null));
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    /** The tools {@code principal} may call, in outward name order. */
    public List<ToolView> tools(Principal principal) {
        List<String> profiles = access.profilesOf(principal);
        List<ToolView> out = new ArrayList<>();
        for (ToolTable.Route route : table.routes()) {
            Set<String> tags = Authorize.tagsOf(table, route.pod());
            if (access.allowing(profiles, route.outward(), tags).isEmpty()) {
                continue;
            }
            Optional<PodManifest> manifest = table.catalog().pod(route.pod());
            DeclaredTool declared = manifest.flatMap(m -> m.tools().stream().filter(t -> t.name().equals(route.tool())).findFirst())
                    .orElse(null);
            DefinitionPins.Seen seen = manifest.map(m -> pins.seen(m, route.tool(), declared)).orElse(null);
            JsonNode description = route.definition().get("description");
            out.add(new ToolView(route.outward(), route.pod(), route.tool(), description == null ? "" : description.asText(),
                    route.contract() == null ? null : route.contract().id(),
                    route.contract() == null ? null : route.contract().version(), route.schemaHash(),
                    seen == null ? null : seen.definitionHash(), seen == null ? null : seen.pin(),
                    seen == null || seen.drift() == null ? null : seen.drift().wire(), profilesAllowing(route.outward(), tags)));
        }
        out.sort((a, b) -> ToolTable.compareCodePoints(a.outward(), b.outward()));
        return out;
    }

    /** Whether {@code principal} may see the calls of the tool {@code outward} of {@code pod} (a tool no longer served: by its pod). */
    public boolean seesCall(Principal principal, String outward, String pod) {
        if (access.allowsEverything()) {
            return true;
        }
        List<String> profiles = access.profilesOf(principal);
        Set<String> tags = pod == null ? Set.of() : Authorize.tagsOf(table, pod);
        return access.allowing(profiles, outward, tags).isPresent();
    }

    /** The profiles of {@code principal}. */
    public List<String> profilesOf(Principal principal) {
        return access.profilesOf(principal);
    }

    /** Whether {@code principal} is an admin (may read the event stream). */
    public boolean admin(Principal principal) {
        return access.admin(principal);
    }

    private List<String> profilesAllowing(String outward, Set<String> tags) {
        if (access.allowsEverything()) {
            return List.of(PolicyProfile.ALL);
        }
        List<String> out = new ArrayList<>();
        for (String profile : access.policy().profiles().keySet()) {
            if (access.allowing(List.of(profile), outward, tags).isPresent()) {
                out.add(profile);
            }
        }
        out.sort(String::compareTo);
        return out;
    }

    /** The gateway's state name as the console shows it: {@code NotStarted} is {@code idle}, the others in lower case. */
    static String consoleState(String state) {
        return "NotStarted".equals(state) ? "idle" : state.toLowerCase(java.util.Locale.ROOT);
    }
}
