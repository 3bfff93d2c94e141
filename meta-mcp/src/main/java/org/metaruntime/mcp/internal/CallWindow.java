package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpProgress;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of one connection: the one table of requests on the wire (the transport routes every answer
 * here by id), the window of at most {@code maxInFlight} {@code tools/call} requests on the wire with its FIFO
 * queue of at most {@code maxQueued} more, the late answers to drop, the progress tokens, and the end of the
 * session. A call whose deadline passed or that was cancelled is never sent: the deadline is read on the window's
 * clock when the call is submitted and again when a queued call takes a freed slot, so a call that fell due together
 * with the one ahead of it times out unsent whatever order the timer handles them in. Thread-safe.
 */
public final class CallWindow {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The notification that cancels a request. */
    public static final String CANCELLED = "notifications/cancelled";

    /** Where requests are written: one JSON-RPC message per call. */
    public interface Wire {
        /** Queues {@code json} for the server; returns its line number on a pipe, else 0. Throws when it cannot. */
        long write(String json);

        /**
         * Writes the notification {@code json}; completes once the server took it, where the wire can tell (an HTTP
         * POST is answered), else at once. Throws when it cannot write.
         */
        default CompletableFuture<Void> notify(String json) {
            write(json);
            return CompletableFuture.completedFuture(null);
        }

        /** The server answered the message written as line {@code line}: it has read every line up to it. */
        default void answered(long line) {
        }

        /** Whether the server process is still alive (a failed write then waits for the exit's reason). */
        boolean alive();
    }

    /** The calls waiting to be sent by the {@link #sendNext} loop running on this thread, if any. */
    private static final ThreadLocal<ArrayDeque<Request>> NEXT_SENDS = new ThreadLocal<>();

    private final String moduleId;
    private final int maxInFlight;
    private final int maxQueued;
    private final Scheduler timer;
    private final Deadlines deadlines;
    private final Wire wire;
    private final ConcurrentHashMap<String, Request> onTheWire = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Request> progressTokens = new ConcurrentHashMap<>();
    private final LateAnswers lateAnswers = new LateAnswers();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicLong overLimitLines = new AtomicLong();
    private volatile int lineLimit;
    private final Object slots = new Object();
    private int callsInFlight; // guarded by slots
    private final ArrayDeque<Request> queue = new ArrayDeque<>(); // guarded by slots
    private final AtomicReference<Termination> terminated = new AtomicReference<>();
    /** Whether the server speaks bare JSON-RPC 2.0: it is sent no notification. */
    private volatile boolean bare;
    /** What every request carries besides its parameters: the era of the session. */
    private volatile Envelope envelope = Envelope.LEGACY;
    /** How a modern server's {@code input_required} answers are fulfilled (null for a legacy session). */
    private volatile InputRounds inputRounds;
    private final SkippedMessages unknownAnswers;

    /**
     * A window for {@code moduleId}'s connection writing to {@code wire}, whose deadlines are read on
     * {@code timer}'s {@link Scheduler#nanoTime() clock} and enforced by tasks on it.
     */
    public CallWindow(String moduleId, int maxInFlight, int maxQueued, Scheduler timer, Wire wire) {
        this.moduleId = moduleId;
        this.maxInFlight = maxInFlight;
        this.maxQueued = maxQueued;
        this.timer = timer;
        this.deadlines = new Deadlines(timer);
        this.wire = wire;
        this.unknownAnswers = new SkippedMessages(moduleId, "an answer to an unknown request id",
                "answers to unknown request ids", timer::nanoTime, SkippedMessages.INTERVAL);
    }

    /** The scheduler the window's deadlines run on: its timer and its clock. */
    public Scheduler timer() {
        return timer;
    }

    /**
     * The window's clock now (its timer's {@link Scheduler#nanoTime()}): the time base of every
     * {@link Request#deadline()}.
     */
    public long now() {
        return timer.nanoTime();
    }

    /**
     * A new request whose deadline runs from now: {@code deadlineNanos} (on the window's {@link #now() clock}), enforced
     * by the shared timer. With a progress listener in {@code callOptions}, {@code params} gets a
     * {@code _meta.progressToken} unique to it.
     */
    public Request create(Request.Kind kind, String method, String operation, String tool, ObjectNode params,
                          long timeoutMs, long deadlineNanos, McpCallOptions callOptions) {
        return create(kind, method, operation, tool, params, timeoutMs, deadlineNanos, callOptions, true);
    }

    /**
     * Like {@link #create(Request.Kind, String, String, String, ObjectNode, long, long, McpCallOptions)}; with
     * {@code timed} false no timer is armed: the caller waiting for the request must {@link Request#expire()} it
     * at its {@link Request#deadline()}.
     */
    public Request create(Request.Kind kind, String method, String operation, String tool, ObjectNode params,
                          long timeoutMs, long deadlineNanos, McpCallOptions callOptions, boolean timed) {
        String token = null;
        if (callOptions != null && callOptions.onProgress().isPresent()) {
            token = "meta-progress-" + tokens.incrementAndGet();
            JsonNode meta = params.get("_meta");
            (meta instanceof ObjectNode ? (ObjectNode) meta : params.putObject("_meta")).put("progressToken", token);
        }
        long now = now();
        long timeoutNanos = callOptions != null ? callOptions.timeout().toNanos() : Math.max(0, deadlineNanos - now);
        Request r = new Request(this, kind, method, operation, tool, params, timeoutMs, timeoutNanos, callOptions, token,
                timed);
        if (token != null) {
            progressTokens.put(token, r);
        }
        r.arm(deadlineNanos - now);
        return r;
    }

    /**
     * Sends {@code r} now, or (a call beyond the window) queues it, or refuses it with {@code CallRefused}; a request
     * whose deadline passed already times out unsent.
     */
    public void submit(Request r) {
        Termination t = terminated.get();
        if (t != null) {
            r.fail(t);
            return;
        }
        if (r.dueBy(now())) {
            r.expire();
            return;
        }
        if (r.kind() != Request.Kind.CALL) {
            send(r);
            return;
        }
        boolean start = false;
        boolean refused = false;
        synchronized (slots) {
            if (r.isFinished()) {
                return;
            }
            if (callsInFlight < maxInFlight) {
                callsInFlight++;
                r.holdsSlot = true;
                start = true;
            } else if (queue.size() < maxQueued) {
                queue.add(r);
            } else {
                refused = true;
            }
        }
        if (refused) {
            r.fail(new McpBoundaryException(new McpBoundaryError.CallRefused(moduleId, r.tool(), maxInFlight, maxQueued)));
        } else if (start) {
            send(r);
        } else if ((t = terminated.get()) != null) {
            r.fail(t);
        }
    }

    /**
     * Writes {@code r} under a new id (again, for a round of {@link InputRounds}), keeping its slot, deadline and
     * progress token; does nothing once it has an outcome.
     */
    void send(Request r) {
        synchronized (r) {
            if (r.isFinished()) {
                return;
            }
            String id = "meta-" + ids.incrementAndGet();
            r.sent(id);
            r.overLimitAtSend = overLimitLines.get();
            onTheWire.put(id, r);
            Termination t = terminated.get();
            if (t != null) {
                r.fail(t);
                return;
            }
            try {
                r.wireLine = wire.write(Json.MAPPER.writeValueAsString(new McpSchema.JSONRPCRequest(
                        McpSchema.JSONRPC_VERSION, r.method(), id, envelope.params(r.params(), r.callOptions()))));
            } catch (Exception e) {
                if (!wire.alive()) {
                    return; // the exit is on its way: terminate() fails r with the exit code and stderr tail
                }
                r.fail("could not send the request: " + e.getMessage());
            }
        }
    }

    /** An answer from the server: completes its request, or drops a late answer to an abandoned one. */
    public void onResponse(JSONRPCResponse response) {
        Object id = response.id();
        Request r = id instanceof String ? onTheWire.remove(id) : null;
        if (r != null) {
            long line;
            synchronized (r) { // the answer may come before send() has recorded the line's number
                line = r.wireLine;
            }
            wire.answered(line); // before the caller is woken, so that its next request can go straight out
            r.answer(response);
            return;
        }
        if (lateAnswers.drop(id)) {
            LOG.debug("module '{}': dropped the late answer to abandoned request {}", moduleId, id);
        } else {
            unknownAnswers.skipped("no request has that id", String.valueOf(id));
        }
    }

    /** A {@code notifications/progress}: goes to the request whose token it names. */
    public void onProgress(JsonNode params) {
        JsonNode token = params == null ? null : params.get("progressToken");
        Request r = token == null ? null : progressTokens.get(token.asText());
        if (r == null) {
            LOG.debug("module '{}': dropped a progress notification for unknown token {}", moduleId, token);
            return;
        }
        JsonNode total = params.get("total");
        JsonNode message = params.get("message");
        r.progress(new McpProgress(params.path("progress").asDouble(0),
                total == null || !total.isNumber() ? null : total.doubleValue(),
                message == null || !message.isTextual() ? null : message.textValue()));
    }

    /**
     * The server wrote a line over {@code limit} bytes, which was skipped. The request it answered fails at once
     * with {@code LineTooLong} when it can be known: its id {@code knownId} was read from the line's first bytes, or
     * (no id read) it is the only request on the wire. Otherwise the requests that time out later say that a line
     * over the limit was skipped.
     */
    public void onLineTooLong(int limit, String knownId) {
        lineLimit = limit;
        Request r;
        if (knownId != null) {
            r = onTheWire.remove(knownId);
            if (r == null) {
                return; // the answer to a request that already has its outcome
            }
        } else {
            List<String> ids = new ArrayList<>(onTheWire.keySet());
            r = ids.size() == 1 ? onTheWire.remove(ids.get(0)) : null;
        }
        if (r != null) {
            r.fail(new McpBoundaryException(new McpBoundaryError.LineTooLong(moduleId, r.operation(), limit)));
        } else {
            overLimitLines.incrementAndGet();
        }
    }

    /** Fails the request on the wire with id {@code id} (the transport could not deliver it) with {@code reason}. */
    public void onRequestFailed(String id, String reason) {
        Request r = onTheWire.remove(id);
        if (r != null) {
            r.fail(reason);
        }
    }

    /** Fails everything on the wire or queued with {@code t}; later requests fail at once. Idempotent. */
    public boolean terminate(Termination t) {
        if (!terminated.compareAndSet(null, t)) {
            return false;
        }
        deadlines.close();
        unknownAnswers.flush();
        List<Request> waiting;
        synchronized (slots) {
            waiting = new ArrayList<>(queue);
            queue.clear(); // first: a failed call then frees its slot without starting a queued one
        }
        for (Request r : new ArrayList<>(onTheWire.values())) {
            r.fail(t);
        }
        for (Request r : waiting) {
            r.fail(t);
        }
        onTheWire.clear();
        return true;
    }

    /** Why the session ended, or null while it is open. */
    public Termination termination() {
        return terminated.get();
    }

    /** {@code tools/call} requests sent and not yet answered. */
    public int callsInFlight() {
        synchronized (slots) {
            return callsInFlight;
        }
    }

    /** The calls on the wire now (for routing the server's requests to a call's handler). */
    public List<Request> callsOnTheWire() {
        List<Request> calls = new ArrayList<>();
        for (Request r : onTheWire.values()) {
            if (r.kind() == Request.Kind.CALL) {
                calls.add(r);
            }
        }
        return calls;
    }

    /** How many late answers to abandoned requests were dropped. */
    public long droppedAnswers() {
        return lateAnswers.dropped();
    }

    String moduleId() {
        return moduleId;
    }

    Deadlines deadlines() {
        return deadlines;
    }

    /** The detail of a timeout: empty unless lines over the limit were skipped since {@code since}. */
    String overLimitDetail(long since) {
        long skipped = overLimitLines.get() - since;
        return skipped <= 0 ? "" : "the server wrote " + skipped + " stdout line(s) longer than " + lineLimit
                + " bytes meanwhile, which were skipped; the answer may have been one of them";
    }

    /** The request's outcome was claimed: forget it, free its slot, start the next queued call. */
    void done(Request r) {
        String id = r.requestId();
        if (id != null) {
            onTheWire.remove(id);
        }
        if (r.progressToken() != null) {
            progressTokens.remove(r.progressToken());
        }
        if (r.kind() != Request.Kind.CALL) {
            return;
        }
        Request next;
        List<Request> due = null;
        synchronized (slots) {
            if (!r.holdsSlot) {
                queue.remove(r);
                return;
            }
            r.holdsSlot = false;
            long now = now();
            while ((next = queue.poll()) != null) {
                if (next.isFinished()) {
                    continue;
                }
                if (!next.dueBy(now)) {
                    break;
                }
                if (due == null) {
                    due = new ArrayList<>();
                }
                due.add(next); // its deadline passed while it waited: it times out unsent, in the queue's order
            }
            if (next == null) {
                callsInFlight--;
            } else {
                next.holdsSlot = true;
            }
        }
        if (due != null) {
            due.forEach(Request::expire);
        }
        if (next != null) {
            sendNext(next);
        }
    }

    /**
     * Sends the call that got a freed slot. A send that fails at once frees the slot again for the next queued
     * call: those sends run one after the other in a loop on this thread, never nested, however long the queue.
     */
    private void sendNext(Request next) {
        ArrayDeque<Request> pending = NEXT_SENDS.get();
        if (pending != null) {
            pending.add(next);
            return;
        }
        pending = new ArrayDeque<>();
        NEXT_SENDS.set(pending);
        try {
            for (Request r = next; r != null; r = pending.poll()) {
                send(r);
            }
        } finally {
            NEXT_SENDS.remove();
        }
    }

    /**
     * The server speaks MCP {@code 2026-07-28}: from now on every request carries {@code envelope}'s {@code _meta},
     * and {@code input_required} answers are fulfilled by {@code rounds}.
     */
    public void speaksModern(Envelope envelope, InputRounds rounds) {
        this.envelope = envelope;
        this.inputRounds = rounds;
    }

    /** The envelope requests are sent in. */
    public Envelope envelope() {
        return envelope;
    }

    /** Whether the server speaks bare JSON-RPC 2.0. */
    public boolean isBare() {
        return bare;
    }

    /** The fulfiller of {@code input_required} answers of a modern session, else null. */
    InputRounds inputRounds() {
        return inputRounds;
    }

    /** The server speaks bare JSON-RPC 2.0: from now on an abandoned request is dropped here, not cancelled on the wire. */
    public void speaksBare() {
        bare = true;
    }

    /**
     * Cancels {@code r} on the wire (not {@code initialize}, which MCP forbids, nor anything of a bare server, which
     * knows no notification) and drops its late answer.
     */
    void abandon(Request r, String reason) {
        if (r.kind() == Request.Kind.CONNECT || terminated.get() != null) {
            return;
        }
        synchronized (r) {
            String id = r.requestId();
            if (id == null) {
                return; // never sent
            }
            lateAnswers.abandoned(id);
            if (bare) {
                return;
            }
            ObjectNode cancel = Json.MAPPER.createObjectNode();
            cancel.put("jsonrpc", McpSchema.JSONRPC_VERSION).put("method", CANCELLED);
            cancel.putObject("params").put("requestId", id).put("reason", reason);
            try {
                wire.write(cancel.toString());
            } catch (RuntimeException e) {
                LOG.debug("module '{}': could not send notifications/cancelled for {}: {}", moduleId, id, e.toString());
            }
        }
    }
}
