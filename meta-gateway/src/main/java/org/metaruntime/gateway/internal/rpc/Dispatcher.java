package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.metaruntime.supervisor.internal.Failures;

/**
 * Routes the JSON-RPC messages of any transport's client sessions: requests to their method's handler (the
 * answer is sent when its future completes, unless the client cancelled it), responses to the session's
 * pending requests, {@code notifications/cancelled} to the request it names. One dispatcher serves every
 * session. Thread-safe once built.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /**
     * The protocol revisions whose clients may send JSON-RPC batches (an array of messages, answered by one array);
     * the revisions before and after have no batches.
     */
    public static final Set<String> BATCH_REVISIONS = Set.of("2025-03-26");

    /** Handles one request; the future's value is the result, an {@link RpcException} an error answer. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<JsonNode> handle(Request request);
    }

    /** One request of a client. */
    public static final class Request {
        private final ClientSession session;
        private final JsonNode id;
        private final String method;
        private final JsonNode params;
        private final Eras.Envelope envelope;
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private final List<Runnable> onCancel = new CopyOnWriteArrayList<>();

        Request(ClientSession session, JsonNode id, String method, JsonNode params, Eras.Envelope envelope) {
            this.session = session;
            this.id = id;
            this.method = method;
            this.params = params == null || params.isNull() ? JsonRpc.NODES.objectNode() : params;
            this.envelope = envelope;
        }

        public ClientSession session() {
            return session;
        }

        public JsonNode id() {
            return id;
        }

        public String method() {
            return method;
        }

        /** The params ({@code {}} when absent). */
        public JsonNode params() {
            return params;
        }

        /** The client's {@code _meta.progressToken}, or null. */
        public JsonNode progressToken() {
            JsonNode token = params.path("_meta").get("progressToken");
            return token == null || token.isNull() ? null : token;
        }

        /** Whether it is a modern request (no session: what it needs of the client is in {@link #envelope()}). */
        public boolean isModern() {
            return envelope != null;
        }

        /** A modern request's envelope; null for a legacy one. */
        public Eras.Envelope envelope() {
            return envelope;
        }

        /**
         * Whether the client declared {@code capability} (sampling, elicitation, roots): a modern request in its own
         * {@code _meta}, a legacy one at its session's {@code initialize}.
         */
        public boolean clientDeclares(String capability) {
            return envelope != null ? envelope.declares(capability) : session.hasCapability(capability);
        }

        /** Whether the client cancelled it. */
        public boolean isCancelled() {
            return cancelled.get();
        }

        /** Runs {@code action} when the client cancels the request (at once when it already did). */
        public void onCancel(Runnable action) {
            onCancel.add(action);
            if (cancelled.get() && onCancel.remove(action)) {
                action.run();
            }
        }

        /** Cancels it as the client's {@code notifications/cancelled} would (its {@code tasks/cancel}). */
        public void cancel() {
            if (cancelled.compareAndSet(false, true)) {
                for (Runnable action : onCancel) {
                    if (onCancel.remove(action)) {
                        try {
                            action.run();
                        } catch (RuntimeException e) {
                            log.warn("cancelling {} failed", method, e);
                        }
                    }
                }
            }
        }
    }

    private final Map<String, Handler> inline;
    private final Map<String, Handler> modernInline;
    private final Map<String, Consumer<Request>> notifications;
    private final BiFunction<Request, JsonNode, JsonNode> modernResults;
    private final UnaryOperator<RpcException> modernErrors;
    private final LongSupplier nanoClock;

    private final List<Operations> operations = new CopyOnWriteArrayList<>();

    private Dispatcher(Builder b) {
        this.inline = Map.copyOf(b.inline);
        this.modernInline = Map.copyOf(b.modernInline);
        this.notifications = Map.copyOf(b.notifications);
        this.modernResults = b.modernResults;
        this.modernErrors = b.modernErrors;
        this.nanoClock = b.nanoClock;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a dispatcher. Not thread-safe. */
    public static final class Builder {
        private final Map<String, Handler> inline = new HashMap<>();
        private final Map<String, Handler> modernInline = new HashMap<>();
        private final Map<String, Consumer<Request>> notifications = new HashMap<>();
        private BiFunction<Request, JsonNode, JsonNode> modernResults = (request, result) -> result;
        private UnaryOperator<RpcException> modernErrors = UnaryOperator.identity();
        private LongSupplier nanoClock = System::nanoTime;

        private Builder() {
        }

        /** A request's handler, run on the transport's reading thread: it must not block. */
        public Builder inline(String method, Handler handler) {
            inline.put(method, handler);
            return this;
        }

        /** A modern request's handler, run on the transport's reading thread: it must not block. */
        public Builder modern(String method, Handler handler) {
            modernInline.put(method, handler);
            return this;
        }

        /** A notification's handler (never blocks). */
        public Builder notification(String method, Consumer<Request> handler) {
            notifications.put(method, handler);
            return this;
        }

        /** How a modern request's result and error answers are completed (its result type, the server's info, ...). */
        public Builder modernResults(BiFunction<Request, JsonNode, JsonNode> results, UnaryOperator<RpcException> errors) {
            this.modernResults = results;
            this.modernErrors = errors;
            return this;
        }

        /**
         * The monotonic clock, in nanoseconds, that times each request for the {@link Operations} observers; by
         * default {@link System#nanoTime()}.
         */
        public Builder nanoClock(LongSupplier clock) {
            this.nanoClock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Dispatcher build() {
            return new Dispatcher(this);
        }
    }

    /** One line a client sent. */
    public void onLine(ClientSession session, String line) {
        if (line.isBlank()) {
            return;
        }
        JsonNode message;
        try {
            message = JsonRpc.MAPPER.readTree(line);
        } catch (IOException e) {
            session.send(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "the message is not JSON: " + firstLine(e.getMessage()), null));
            return;
        }
        onMessage(session, message);
    }

    /** Whether modern requests of {@code method} are served. */
    public boolean servesModern(String method) {
        return modernInline.containsKey(method);
    }

    /**
     * One parsed message a client sent: a JSON-RPC message, or a batch of them where the session's revision has
     * batches. A request is modern or legacy as {@link Eras#isModern} says.
     */
    public void onMessage(ClientSession session, JsonNode message) {
        onMessage(session, message, false);
    }

    /**
     * One parsed message a client sent.
     *
     * @param modern whether a request is modern whatever its body says (its transport said so)
     */
    public void onMessage(ClientSession session, JsonNode message, boolean modern) {
        if (message.isArray()) {
            onBatch(session, (ArrayNode) message);
            return;
        }
        handle(session, message, modern).thenAccept(answer -> {
            if (answer != null) {
                session.send(answer);
            }
        });
    }

    /**
     * A batch: in a session of a revision with batches ({@link #BATCH_REVISIONS}) each message is handled and the
     * answers go back together, as one array, once every request of the batch is answered (nothing when none needs
     * an answer); in any other session it is refused with one -32600 error.
     */
    private void onBatch(ClientSession session, ArrayNode batch) {
        String revision = session.protocolVersion();
        if (revision == null || !BATCH_REVISIONS.contains(revision)) {
            session.send(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "JSON-RPC batches are not part of MCP "
                    + (revision == null ? "before initialize" : revision) + ": send one message at a time", null));
            return;
        }
        if (batch.isEmpty()) {
            session.send(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "an empty batch", null));
            return;
        }
        List<CompletableFuture<ObjectNode>> answers = new ArrayList<>(batch.size());
        for (JsonNode message : batch) {
            if ("initialize".equals(message.path("method").asText(null))) {
                answers.add(CompletableFuture.completedFuture(JsonRpc.error(message.get("id"), JsonRpc.INVALID_REQUEST,
                        "initialize must not be part of a batch", null)));
            } else {
                answers.add(handle(session, message, false));
            }
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() -> {
            ArrayNode out = JsonRpc.NODES.arrayNode();
            for (CompletableFuture<ObjectNode> answer : answers) {
                ObjectNode message = answer.join();
                if (message != null) {
                    out.add(message);
                }
            }
            if (!out.isEmpty()) {
                session.sendBatch(out);
            }
        });
    }

    /** Handles one message; completes with the answer to send, or null when it needs none. Never completes exceptionally. */
    private CompletableFuture<ObjectNode> handle(ClientSession session, JsonNode message, boolean modern) {
        if (!message.isObject()) {
            return done(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, message.isArray()
                    ? "a batch inside a batch" : "a message is a JSON object", null));
        }
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        if (method == null) {
            if (id != null && (message.has("result") || message.has("error"))) {
                session.onResponse(message);
                return done(null);
            }
            return done(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "a message needs a method, or a result or error", null));
        }
        if (!method.isTextual()) {
            return done(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "method must be a string", null));
        }
        if (id == null || id.isNull()) {
            Request request = new Request(session, id, method.textValue(), message.get("params"), null);
            Consumer<Request> handler = notifications.get(request.method());
            if (handler != null) {
                try {
                    handler.accept(request);
                } catch (RuntimeException e) {
                    log.warn("notification {} failed", request.method(), e);
                }
            }
            return done(null);
        }
        if (!id.isTextual() && !id.isIntegralNumber()) {
            return done(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "id must be a string or an integer", null));
        }
        String name = method.textValue();
        JsonNode params = message.get("params");
        Eras.Envelope envelope = null;
        if (modern || Eras.isModern(name, params)) {
            try {
                envelope = Eras.check(params);
            } catch (RpcException refused) {
                return done(JsonRpc.error(id, refused.code(), refused.getMessage(), refused.data()));
            }
        }
        Request request = new Request(session, id, name, params, envelope);
        Handler handler = (envelope == null ? inline : modernInline).get(name);
        if (handler == null) {
            return done(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, envelope == null ? "unknown method " + name
                    : "method " + name + " is not served to " + Eras.MODERN + " requests", null));
        }
        if (!session.track(id, request::cancel)) {
            return done(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "too many requests in flight (at most "
                    + ClientSession.MAX_IN_FLIGHT + ")", null));
        }
        return run(handler, request);
    }

    private static CompletableFuture<ObjectNode> done(ObjectNode answer) {
        return CompletableFuture.completedFuture(answer);
    }

    /** The client's {@code notifications/cancelled}. */
    public static void cancelled(Request notification) {
        JsonNode requestId = notification.params().get("requestId");
        if (requestId != null) {
            notification.session().cancel(requestId);
        }
    }

    /** Runs {@code handler}; completes with the answer, or null when the client cancelled the request. */
    private CompletableFuture<ObjectNode> run(Handler handler, Request request) {
        long start = nanoClock.getAsLong();
        CompletableFuture<JsonNode> result;
        try {
            result = handler.handle(request);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.handle((value, error) -> {
            ObjectNode answer = answer(request, value, error);
            observe(request, answer, nanoClock.getAsLong() - start);
            return answer;
        });
    }

    /** Told of every request answered (not those the client cancelled). Must be fast and not throw. */
    @FunctionalInterface
    public interface Operations {
        /**
         * @param method    the request's method
         * @param params    its params (may be null)
         * @param nanos     how long it took to answer, on the dispatcher's clock
         * @param errorCode the JSON-RPC code of an error answer; null for a result
         * @param result    the result; null for an error
         */
        void answered(String method, JsonNode params, long nanos, Integer errorCode, JsonNode result);
    }

    /** Tells {@code observer} of every request answered from now on. */
    public void observe(Operations observer) {
        operations.add(observer);
    }

    private void observe(Request request, ObjectNode answer, long nanos) {
        if (answer == null || operations.isEmpty()) {
            return;
        }
        JsonNode error = answer.get("error");
        Integer code = error == null ? null : error.path("code").asInt();
        for (Operations observer : operations) {
            try {
                observer.answered(request.method(), request.params(), nanos, code, answer.get("result"));
            } catch (RuntimeException e) {
                log.warn("an operation observer failed", e);
            }
        }
    }

    private ObjectNode answer(Request request, JsonNode result, Throwable error) {
        request.session().untrack(request.id());
        if (request.isCancelled()) {
            return null;
        }
        if (error == null && request.isModern()) {
            try {
                result = modernResults.apply(request, result);
            } catch (RuntimeException e) {
                error = e;
            }
        }
        if (error == null) {
            return JsonRpc.result(request.id(), result);
        }
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof RpcException rpc && request.isModern()) {
            cause = modernErrors.apply(rpc);
        }
        if (cause instanceof RpcException rpc) {
            return JsonRpc.error(request.id(), rpc.code(), rpc.getMessage(), rpc.data());
        }
        log.warn("{} failed", request.method(), cause);
        return JsonRpc.error(request.id(), JsonRpc.INTERNAL_ERROR, request.method() + " failed: " + cause, null);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
