package org.metaruntime.gateway.internal.serve;

import java.util.List;
import java.util.function.Predicate;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.spi.Principal;

/**
 * The pods a principal sees: those with a tool it may call, and those without tools that carry one of its profiles'
 * tags; and whether it sees the gateway's status ({@code meta://status} when it may call {@code meta__status}).
 */
record Visibility(Predicate<String> pods, boolean status) {

    /** Everything. */
    static final Visibility ALL = new Visibility(pod -> true, true);

    boolean pod(String name) {
        return pods.test(name);
    }

    /** What {@code principal} sees of what {@code table} serves, by {@code access}. */
    static Visibility of(Principal principal, Access access, ToolTable table) {
        if (access.allowsEverything()) {
            return ALL;
        }
        List<String> profiles = access.profilesOf(principal);
        boolean status = table.route(table.statusName())
                .flatMap(route -> access.allowing(profiles, route.outward(), java.util.Set.of())).isPresent();
        return new Visibility(pod -> {
            if (Names.RESERVED_POD.equals(pod)) {
                return status;
            }
            List<ToolTable.Route> routes = table.ofPod(pod);
            java.util.Set<String> tags = Authorize.tagsOf(table, pod);
            if (routes.isEmpty()) {
                return access.seesTags(profiles, tags);
            }
            return routes.stream().anyMatch(route -> access.allowing(profiles, route.outward(), tags).isPresent());
        }, status);
    }
}
