package org.metaruntime.module;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The code of one tool: takes the call's arguments (a JSON object, empty when the client sent none) and returns
 * its result. Called on a worker thread, possibly for several calls at once: an implementation must be
 * thread-safe.
 *
 * <p>What it returns becomes the tool result:
 * <ul>
 *   <li>a {@link ToolResult}: sent as it is;</li>
 *   <li>a {@link CharSequence}: one text block;</li>
 *   <li>anything else (a {@code JsonNode}, a {@code Map}, a record, a number...): converted to JSON with
 *       Jackson, sent as {@code structuredContent} when it is a JSON object, and as one text block holding
 *       that JSON.</li>
 * </ul>
 * A thrown {@link ToolException} becomes a result with {@code isError: true} carrying its message; any other
 * exception does too, and its stack trace goes to stderr. An interrupted handler (the client cancelled the call)
 * should return soon; its result is not sent.
 *
 * <pre>{@code
 * ToolHandler reverse = args -> new StringBuilder(args.path("text").asText()).reverse().toString();
 * }</pre>
 */
@FunctionalInterface
public interface ToolHandler {

    /**
     * Runs the tool.
     *
     * @param arguments the call's arguments, a JSON object
     * @return the result (see the type's documentation); {@code null} is an empty text result
     * @throws Exception a failure, reported to the caller as a result with {@code isError: true}
     */
    Object call(JsonNode arguments) throws Exception;
}
