package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * What every transport of ours owes the SDK session that answers a server's requests: the session's handler, given
 * once at {@code connect}; the serialising of what it sends; and the conversion of what it reads. Thread-safe.
 */
final class SdkSessionLink {

    /** Writes one serialised message to the server. */
    @FunctionalInterface
    interface Writer {
        void write(String json) throws IOException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(org.metaruntime.mcp.McpConnection.class);

    private final String moduleId;
    private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;

    SdkSessionLink(String moduleId) {
        this.moduleId = moduleId;
    }

    /** {@code McpClientTransport.connect}: keeps the session's handler; a second connect fails. */
    Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        if (this.handler != null) {
            return Mono.error(new IllegalStateException("the transport of module '" + moduleId + "' is already connected"));
        }
        this.handler = handler;
        return Mono.empty();
    }

    /** {@code McpClientTransport.sendMessage}: serialises {@code message} and writes it when subscribed. */
    static Mono<Void> send(JSONRPCMessage message, Writer writer) {
        return Mono.defer(() -> {
            try {
                writer.write(Json.MAPPER.writeValueAsString(message));
                return Mono.empty();
            } catch (IOException | RuntimeException e) {
                return Mono.error(e);
            }
        });
    }

    /** Hands a request of the server to the session, which answers it; dropped before the session started. */
    void dispatch(JSONRPCMessage request) {
        Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> h = handler;
        if (h == null) {
            LOG.debug("module '{}': dropped a request that arrived before the session started", moduleId);
            return;
        }
        h.apply(Mono.just(request)).subscribe(null,
                e -> LOG.warn("module '{}': answering a request of the server failed: {}", moduleId, e.toString()));
    }

    /** {@code McpClientTransport.unmarshalFrom}: Jackson trees stay trees. */
    @SuppressWarnings("unchecked")
    static <T> T unmarshal(Object data, TypeRef<T> typeRef) {
        if (typeRef.getType() == JsonNode.class) {
            return (T) (data instanceof JsonNode ? data : Json.MAPPER.valueToTree(data));
        }
        return Json.MCP_MAPPER.convertValue(data, typeRef);
    }
}
