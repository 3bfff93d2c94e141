package org.metaruntime.gateway.internal.http;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.metaruntime.gateway.internal.cluster.DatabaseUnreachable;
import org.metaruntime.gateway.internal.cluster.SharedSessions;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open sessions of both HTTP transports, by id: unguessable ids, a bound on their number, keep-alive comments
 * on quiet streams and the expiry of idle sessions, on one timer thread. Thread-safe.
 */
final class SessionRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionRegistry.class);

    /** At most this many sessions at once; more are refused with 503. */
    static final int MAX_SESSIONS = 10_000;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
    private final java.util.Set<ModernPost> modern = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;
    private final long idleNanos;
    private final long keepAliveNanos;
    private final LongSupplier nanoClock;
    private volatile boolean accepting = true;
    /** Notified when a call ends once sessions are no longer accepted: what a close waits on. */
    private final Object callEnds = new Object();
    private volatile SharedSessions shared;

    /** @param nanoClock the monotonic clock, in nanoseconds, of the sessions' idle times (the gateway's clock of requests) */
    SessionRegistry(Duration idleTimeout, Duration keepAlive, LongSupplier nanoClock) {
        this.idleNanos = idleTimeout.toNanos();
        this.nanoClock = nanoClock;
        this.keepAliveNanos = keepAlive.toNanos();
        this.timer = DaemonThreads.timer("meta-gateway-http-sessions");
        long tick = Math.max(20, Math.min(keepAlive.toMillis(), idleTimeout.toMillis()) / 4);
        timer.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** A new unguessable session id (128 random bits, hex). */
    String newId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Adds a session; false when no more are accepted (too many, or serving stops). */
    boolean add(HttpSession session) {
        if (!accepting || sessions.size() >= MAX_SESSIONS) {
            return false;
        }
        sessions.put(session.id(), session);
        return true;
    }

    /** Tracks a modern request in flight (no session); false when serving stops. */
    boolean addModern(ModernPost post) {
        if (!accepting) {
            return false;
        }
        modern.add(post);
        return true;
    }

    void removeModern(ModernPost post) {
        modern.remove(post);
        callEnded();
    }

    /** A call in flight ended: wakes a close waiting for the calls to end. */
    void callEnded() {
        if (!accepting) {
            synchronized (callEnds) {
                callEnds.notifyAll();
            }
        }
    }

    /**
     * Once sessions are no longer accepted, waits until no call is in flight, at most {@code timeout} (of real time);
     * returns how many calls are still in flight.
     */
    int awaitCallsEnded(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (callEnds) {
            int left;
            while ((left = callsInFlight()) > 0) {
                long waitMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (waitMs <= 0) {
                    return left;
                }
                callEnds.wait(waitMs);
            }
            return 0;
        }
    }

    /**
     * Adds a session loaded from the shared database unless one with its id is held already; returns the one held
     * now, or null when no more are accepted.
     */
    HttpSession adopt(HttpSession session) {
        if (!accepting || sessions.size() >= MAX_SESSIONS) {
            return null;
        }
        HttpSession held = sessions.putIfAbsent(session.id(), session);
        return held == null ? session : held;
    }

    /** Keeps the legacy Streamable HTTP sessions in {@code store} too, shared by the replicas of a cluster. */
    void share(SharedSessions store) {
        this.shared = store;
    }

    /** The shared sessions of the cluster; null for a single process. */
    SharedSessions shared() {
        return shared;
    }

    HttpSession get(String id) {
        return id == null ? null : sessions.get(id);
    }

    void remove(HttpSession session) {
        sessions.remove(session.id(), session);
    }

    int size() {
        return sessions.size();
    }

    /** Number of open sessions of {@code type}. */
    long count(Class<? extends HttpSession> type) {
        return sessions.values().stream().filter(type::isInstance).count();
    }

    /** Calls in flight over every session, and modern requests in flight. */
    int callsInFlight() {
        int n = modern.size();
        for (HttpSession session : sessions.values()) {
            n += session.callsInFlight();
        }
        return n;
    }

    /** Refuses new sessions from now on. */
    void stopAccepting() {
        accepting = false;
    }

    boolean accepting() {
        return accepting;
    }

    private void tick() {
        for (ModernPost post : modern) {
            post.keepAlive(keepAliveNanos);
        }
        for (HttpSession session : sessions.values()) {
            try {
                session.keepAlive(keepAliveNanos);
                if (session.idleFor(idleNanos)) {
                    expire(session);
                } else if (shared != null && session instanceof StreamableSession streamable) {
                    holdShared(streamable);
                }
            } catch (RuntimeException e) {
                log.warn("session {}: keep-alive or expiry failed", session.id(), e);
            }
        }
    }

    /**
     * Ends a session idle here. A shared one is judged on its shared last use: when another replica used it lately,
     * only this replica's copy goes (it is loaded again by its next request here).
     */
    private void expire(HttpSession session) {
        SharedSessions store = shared;
        if (store != null && session instanceof StreamableSession) {
            boolean gone;
            try {
                gone = store.expireIfIdle(session.id());
            } catch (DatabaseUnreachable e) {
                gone = true;
            }
            if (!gone) {
                log.debug("session {} is idle here but used on another replica: this copy is dropped", session.id());
                sessions.remove(session.id(), session);
                session.close("the session is served by another replica");
                return;
            }
        }
        log.info("session {} expired after {} ms idle", session.id(), TimeUnit.NANOSECONDS.toMillis(idleNanos));
        sessions.remove(session.id(), session);
        session.close("the session expired");
    }

    /**
     * A session whose GET stream this replica holds is in use, requests or not: its shared last use is renewed (at
     * most every quarter of the idle timeout) so that no replica expires it meanwhile.
     */
    private void holdShared(StreamableSession session) {
        long now = nanoClock.getAsLong();
        if (!session.hasStream() || now - session.sharedTouchNanos() < idleNanos / 4) {
            return;
        }
        session.sharedTouchNanos(now);
        try {
            shared.touch(session.id());
        } catch (DatabaseUnreachable e) {
            log.debug("session {}: its shared last use cannot be renewed now", session.id());
        }
    }

    /** Ends every session and the timer. */
    @Override
    public void close() {
        accepting = false;
        timer.shutdownNow();
        for (HttpSession session : sessions.values()) {
            sessions.remove(session.id(), session);
            session.close("the gateway is stopping");
        }
        for (ModernPost post : modern) {
            modern.remove(post);
            post.abort("the gateway is stopping");
        }
    }
}
