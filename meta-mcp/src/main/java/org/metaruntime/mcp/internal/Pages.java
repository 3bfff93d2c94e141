package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;

/**
 * Follows every page of a paginated MCP list request ({@code tools/list}, {@code resources/list}, ...): one request
 * per page, each bounded by what is left of one deadline, at most {@value #MAX_PAGES} pages. Stateless.
 */
public final class Pages {

    /** More pages than this is a malformed answer. */
    public static final int MAX_PAGES = 1000;

    private Pages() {
    }

    /**
     * All items of the list, in server order.
     *
     * @param field     the result's array field ({@code tools}, {@code resources}, ...)
     * @param convert   turns one item into its record; a runtime exception makes the list malformed
     * @param malformed the error for a malformed answer, from a reason
     */
    public static <T> CompletableFuture<List<T>> all(CallWindow window, Request.Kind kind, String method, String operation,
                                                     String field, Function<JsonNode, T> convert,
                                                     Function<String, McpBoundaryError> malformed,
                                                     long timeoutMs, long deadline) {
        List<T> items = new ArrayList<>();
        return page(window, kind, method, operation, field, convert, malformed, timeoutMs, deadline, null, 0, items)
                .thenApply(ignored -> List.copyOf(items));
    }

    private static <T> CompletableFuture<Void> page(CallWindow window, Request.Kind kind, String method, String operation,
                                                    String field, Function<JsonNode, T> convert,
                                                    Function<String, McpBoundaryError> malformed, long timeoutMs,
                                                    long deadline, String cursor, int page, List<T> items) {
        ObjectNode params = Json.MAPPER.createObjectNode();
        if (cursor != null) {
            params.put("cursor", cursor);
        }
        Request r = window.create(kind, method, operation, null, params, timeoutMs, deadline, null);
        window.submit(r);
        return r.future().thenCompose(result -> {
            JsonNode list = result.get(field);
            if (list == null || !list.isArray()) {
                throw new McpBoundaryException(malformed.apply("the server sent a " + method + " result without a "
                        + field + " array"));
            }
            for (JsonNode item : list) {
                try {
                    items.add(convert.apply(item));
                } catch (McpBoundaryException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw new McpBoundaryException(malformed.apply("the server sent an invalid item in " + method
                            + ": " + e.getMessage()));
                }
            }
            JsonNode next = result.get("nextCursor");
            if (next == null || !next.isTextual() || next.textValue().isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (page + 1 >= MAX_PAGES) {
                throw new McpBoundaryException(malformed.apply("the server sent more than " + MAX_PAGES + " pages"));
            }
            return page(window, kind, method, operation, field, convert, malformed, timeoutMs, deadline,
                    next.textValue(), page + 1, items);
        });
    }
}
