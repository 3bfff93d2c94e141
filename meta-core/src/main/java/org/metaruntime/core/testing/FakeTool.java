package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool of a {@link FakeMcpModule}: gets the call's arguments, returns the payload (a JSON object is the result's
 * {@code structuredContent}, anything else its text). It runs on the runtime's executor and may block; the caller's
 * timeout still applies, and a call that is cancelled, times out or loses its connection interrupts the thread
 * running it. Concurrent calls run it on several threads at once, so it must be thread-safe.
 *
 * <p>Throwing is the tool reporting an error, as a server's result with {@code isError: true} whose text is the
 * exception's message: a routed call fails with {@code McpBoundaryError.ToolReturnedError}, and
 * {@code runtime.mcp(id).callTool} returns that result. Throwing an {@code McpBoundaryException} fails the call with
 * its error instead (any error a real call can get, e.g. {@code JsonRpcError}).
 */
@FunctionalInterface
public interface FakeTool {

    JsonNode call(JsonNode arguments) throws Exception;

    /**
     * A tool that also uses its call: reports progress, sends notifications, sees that its call ended. Registered
     * with {@link FakeMcpModule.Builder#tool(String, WithContext)}.
     *
     * <pre>{@code
     * .tool("copy", (args, call) -> {
     *     for (int i = 1; i <= 3 && !call.isCancelled(); i++) {
     *         call.progress(i, 3.0, "copied part " + i);
     *     }
     *     return TextNode.valueOf("copied");
     * })
     * }</pre>
     */
    @FunctionalInterface
    interface WithContext {
        JsonNode call(JsonNode arguments, FakeToolContext call) throws Exception;
    }
}
