package org.metaruntime.gateway.internal.cli;

import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The command's signals, the same for every transport: SIGTERM and SIGINT end serving (the command then stops every
 * pod and exits 0), SIGHUP reloads the manifests and serving goes on. Each action runs on a thread of its own, never
 * on the signal's. Where a signal cannot be handled (the JVM runs with {@code -Xrs}, or the signal is ignored, as
 * under {@code nohup}), its default stays: the shutdown hook still stops every pod.
 */
final class Signals {

    private static final Logger log = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    /** Handles SIGTERM and SIGINT with {@code stop}, SIGHUP with {@code reload}. */
    static void install(Runnable stop, Runnable reload) {
        handle("TERM", stop, "meta-gateway-stop");
        handle("INT", stop, "meta-gateway-stop");
        handle("HUP", reload, "meta-gateway-reload");
    }

    private static void handle(String name, Runnable action, String threadName) {
        try {
            Signal.handle(new Signal(name), signal -> {
                log.info("SIG{}: {}", name, "HUP".equals(name) ? "reloading the manifests" : "stopping");
                DaemonThreads.thread(threadName, action).start();
            });
        } catch (IllegalArgumentException unavailable) {
            log.debug("SIG{} keeps its default: {}", name, unavailable.getMessage());
        }
    }
}
