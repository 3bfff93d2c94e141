package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools a server lists, as it sent them (name, title, description, schemas, annotations, {@code _meta}), in
 * server order: fetched with every page of {@code tools/list}, refreshed on {@code notifications/tools/list_changed}
 * (coalesced: one refresh at a time, one more if a change came meanwhile) and once when a call names a tool the
 * catalog does not have. {@link #settled()} waits for the refreshes the announced changes asked for. The one catalog
 * of a connection, for blocking and asynchronous calls alike. Thread-safe.
 */
public final class ToolCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** How long the refresh after {@code notifications/tools/list_changed} may take. */
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(30);

    private final CallWindow window;
    private volatile List<McpSchema.Tool> declared;
    private volatile List<McpSchema.Tool> tools = List.of();
    private volatile List<String> names = List.of();
    private volatile Set<String> nameSet = Set.of();
    private final Object rounds = new Object();
    /** The refresh under way; null when none is. */
    private CompletableFuture<Void> running;
    /** The refresh to run after it, for a change announced meanwhile; null when none was. */
    private CompletableFuture<Void> queued;

    /**
     * A catalog listing through {@code window}, empty until the first {@link #fetch}; or, with {@code declared}
     * tools (a bare server that has no {@code tools/list}), those tools, never fetched.
     */
    public ToolCatalog(CallWindow window, List<McpSchema.Tool> declared) {
        this.window = window;
        this.declared = declared;
        if (declared != null) {
            cache(declared);
        }
    }

    /** The server was found to speak bare JSON-RPC: its tools are {@code declared} from now on, never fetched. */
    public void declare(List<McpSchema.Tool> declared) {
        this.declared = List.copyOf(declared);
        cache(this.declared);
    }

    /** The tools last listed, in server order. */
    public List<McpSchema.Tool> descriptors() {
        return tools;
    }

    /** The names of the tools last listed, in server order. */
    public List<String> names() {
        return names;
    }

    /** Whether the tools last listed include {@code tool}. */
    public boolean contains(String tool) {
        return nameSet.contains(tool);
    }

    /** Lists every page of {@code tools/list} within the deadline and caches the result. */
    public CompletableFuture<List<McpSchema.Tool>> fetch(long timeoutMs, long deadline) {
        List<McpSchema.Tool> known = declared;
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        String moduleId = window.moduleId();
        return Pages.all(window, Request.Kind.LIST, McpSchema.METHOD_TOOLS_LIST, "list_tools", "tools",
                ToolCatalog::tool, reason -> new McpBoundaryError.ToolListFailed(moduleId, reason), timeoutMs, deadline)
                .thenApply(this::cache);
    }

    /**
     * Completes when {@code tool} is listed, refreshing once if it is not; fails with {@code ToolNotFound}, or
     * {@code Timeout} with operation {@code call_tool:<tool>} when the deadline passed.
     */
    public CompletableFuture<Void> ensure(String tool, long timeoutMs, long deadline) {
        if (contains(tool)) {
            return CompletableFuture.completedFuture(null);
        }
        return fetch(timeoutMs, deadline).handle((listed, e) -> {
            if (e != null) {
                LOG.debug("module '{}': refreshing the tool list for '{}' failed: {}", window.moduleId(), tool, e.toString());
            }
            if (!contains(tool)) {
                throw new McpBoundaryException(window.now() - deadline >= 0
                        ? new McpBoundaryError.Timeout(window.moduleId(), "call_tool:" + tool, timeoutMs)
                        : new McpBoundaryError.ToolNotFound(window.moduleId(), tool, names));
            }
            return null;
        });
    }

    /** Refreshes after {@code notifications/tools/list_changed}. */
    public void refresh() {
        if (window.termination() != null || declared != null) {
            return;
        }
        CompletableFuture<Void> round;
        synchronized (rounds) {
            if (running != null) {
                if (queued == null) {
                    queued = new CompletableFuture<>();
                }
                return;
            }
            round = running = new CompletableFuture<>();
        }
        run(round);
    }

    /** Runs one refresh, bounded by {@link #REFRESH_TIMEOUT}, then the one queued meanwhile, if any. */
    private void run(CompletableFuture<Void> round) {
        CompletableFuture<List<McpSchema.Tool>> listing;
        try {
            listing = fetch(REFRESH_TIMEOUT.toMillis(), window.now() + REFRESH_TIMEOUT.toNanos());
        } catch (RuntimeException e) {
            listing = CompletableFuture.failedFuture(e);
        }
        listing.whenComplete((list, e) -> {
            if (e != null) {
                LOG.debug("module '{}': refreshing the tool list failed: {}", window.moduleId(), e.toString());
            }
            CompletableFuture<Void> next;
            synchronized (rounds) {
                next = queued;
                queued = null;
                running = next;
            }
            round.complete(null);
            if (next != null) {
                run(next);
            }
        });
    }

    /**
     * The tools once every change announced so far is re-read (at once when no refresh is under way or queued); a
     * refresh that failed or timed out leaves the list as it was. Completes on the thread that ended the refresh.
     */
    public CompletableFuture<List<McpSchema.Tool>> settled() {
        CompletableFuture<Void> last;
        synchronized (rounds) {
            last = queued != null ? queued : running;
        }
        return last == null ? CompletableFuture.completedFuture(tools) : last.thenApply(done -> tools);
    }

    private List<McpSchema.Tool> cache(List<McpSchema.Tool> listed) {
        List<String> listedNames = new ArrayList<>(listed.size());
        for (McpSchema.Tool t : listed) {
            listedNames.add(t.name());
        }
        List<String> copy = List.copyOf(listedNames);
        nameSet = Set.copyOf(copy);
        names = copy;
        tools = listed;
        return listed;
    }

    private static McpSchema.Tool tool(JsonNode item) {
        JsonNode name = item.get("name");
        if (name == null || !name.isTextual()) {
            throw new IllegalArgumentException("a tool without a name");
        }
        return Json.MCP_MAPPER.convertValue(item, McpSchema.Tool.class);
    }
}
