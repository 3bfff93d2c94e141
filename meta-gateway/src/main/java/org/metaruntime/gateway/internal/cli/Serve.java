package org.metaruntime.gateway.internal.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.EventEndpoints;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.HttpOptions;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;
import org.metaruntime.gateway.internal.auth.NamedTokens;
import org.metaruntime.gateway.internal.auth.NamedTokensFile;
import org.metaruntime.gateway.internal.cluster.MemoryTasks;
import org.metaruntime.gateway.internal.cluster.ReplicaIds;
import org.metaruntime.gateway.internal.cluster.Replicas;
import org.metaruntime.gateway.internal.http.HttpServing;
import org.metaruntime.gateway.internal.serve.GatewayTasks;

/**
 * The serving half of the command. Stdio: until the client closes stdin, or SIGTERM or SIGINT. HTTP: until SIGTERM or
 * SIGINT, after the readiness line {@code meta-gateway listening on http://HOST:PORT/mcp} on stderr (one whole line;
 * log lines may come before it). Then every pod is stopped and the exit code is 0. SIGHUP, and with {@code --watch} a
 * change to the manifests, reloads them. With {@code --state jdbc:postgresql://...} over HTTP the gateway is a replica of a
 * cluster ({@link Cluster}): it registers before the readiness line and leaves at a clean stop. With {@code --state DIR} the pods' runtime appends every event to {@code DIR/event_log.sqlite3}
 * and, over HTTP, the log is served under {@code /meta/events} and {@code /meta/mob_events}; it is closed (flushed)
 * after the pods stop.
 */
final class Serve {

    /** The start of the readiness line (the line is this, then the URL of {@code /mcp}). */
    static final String READY = "meta-gateway listening on ";

    /** The environment variable that may carry the bearer token. */
    static final String TOKEN_ENV = "META_GATEWAY_TOKEN";

    private Serve() {
    }

    static int serve(MetaGateway.Builder builder, GatewayOptions.Builder options, CommandLine line, PrintStream out,
                     PrintStream err) {
        boolean http = !"stdio".equals(line.transport());
        HttpOptions.Builder httpOptions = null;
        InetSocketAddress address = null;
        if (!http && credentialsUnused(line)) {
            err.println("meta-gateway: warning: --tokens, --oauth-* and --public-url are for HTTP; over stdio they are unused");
        }
        if (http) {
            String token;
            try {
                token = token(line);
                httpOptions = httpOptions(line, token);
            } catch (IllegalArgumentException | CommandLine.UsageException e) {
                return usageError(err, e.getMessage());
            }
            address = new InetSocketAddress(line.host(), line.port());
            if (address.isUnresolved()) {
                return usageError(err, "--host " + line.host() + " cannot be resolved");
            }
            if (line.oauth() != null && line.publicUrl() == null && HttpServing.isWildcard(address)) {
                return usageError(err, "--oauth-issuer with the wildcard --host " + line.host()
                        + " needs --public-url (the /mcp URL clients use)");
            }
            boolean credential = token != null || line.tokens() != null || line.oauth() != null;
            try {
                HttpServing.checkAddress(address, credential ? httpOptions.build() : HttpOptions.defaults());
            } catch (IllegalArgumentException e) {
                return usageError(err, "--host " + line.host() + " is not a loopback address: give a credential (--token-file FILE"
                        + " or the environment variable " + TOKEN_ENV + ", --tokens FILE, or --oauth-issuer)");
            }
            if (line.tokens() != null) {
                try {
                    httpOptions.authenticator(new NamedTokens(NamedTokensFile.readEntries(line.tokens(), System.getenv(), options.build().policy()::hasProfile)));
                } catch (ManifestException e) {
                    e.problems().forEach(err::println);
                    return 1;
                }
            }
        }
        Cluster cluster = null;
        if (line.stateUrl() != null && http) {
            try {
                cluster = Cluster.of(line, StateLog.database(line, System.getenv()));
            } catch (IllegalArgumentException e) {
                return usageError(err, e.getMessage());
            }
        }
        EventLog log = null;
        if (line.state() != null || line.stateUrl() != null) {
            try {
                log = StateLog.open(line, cluster != null ? cluster.database() : StateLog.database(line, System.getenv()),
                        cluster != null ? cluster.replicaId() : ReplicaIds.next());
            } catch (RuntimeException e) {
                err.println("meta-gateway: --state " + StateLog.describe(line) + " cannot be opened: " + e.getMessage());
                return 1;
            }
            builder.options(options.eventLog(log).build());
            if (http) {
                EventEndpoints.mount(httpOptions, log);
            }
        }
        try {
            return serve(builder, line, http ? httpOptions.build() : null, address, cluster, err);
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }

    /** Whether the command line gives HTTP credential options (unused over stdio, where the one client is {@code local}). */
    static boolean credentialsUnused(CommandLine line) {
        return "stdio".equals(line.transport()) && (line.tokens() != null || line.oauth() != null || line.publicUrl() != null);
    }

    private static int usageError(PrintStream err, String message) {
        err.println("meta-gateway: " + message);
        err.println(CommandLine.USAGE);
        return 2;
    }

    private static int serve(MetaGateway.Builder builder, CommandLine line, HttpOptions httpOptions, InetSocketAddress address,
                             Cluster cluster, PrintStream err) {
        MetaGateway gateway;
        try {
            gateway = builder.build();
        } catch (ManifestException e) {
            e.problems().forEach(err::println);
            return 1;
        }
        // Stdout carries JSON-RPC only: whatever else prints to System.out goes to stderr.
        FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(err);
        EventLog log = gateway.options().eventLog().orElse(null);
        Thread hook = new Thread(() -> {
            if (cluster != null) {
                cluster.close();
            }
            gateway.close();
            if (log != null) {
                log.close();
            }
        }, "meta-gateway-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (gateway) {
            Serving serving;
            if (httpOptions != null) {
                try {
                    serving = gateway.serveHttp(address, httpOptions);
                } catch (UncheckedIOException e) {
                    err.println("meta-gateway: cannot listen on " + line.host() + ":" + line.port() + ": " + e.getCause().getMessage());
                    return 1;
                }
                if (cluster != null) {
                    cluster.join((HttpServing) serving, httpOptions.sessionIdleTimeout());
                }
                if (line.taskAfter() != null) {
                    ((HttpServing) serving).offerTasks(new GatewayTasks(line.taskAfter(), line.taskTtl(),
                            cluster != null ? cluster.tasks(line.taskTtl()) : new MemoryTasks(line.taskTtl()),
                            cluster != null ? cluster.registry() : Replicas.single(null)));
                }
                // One write, under the lock System.err's log lines hold from their text to their line end, so that
                // neither can come between the other's text and line end.
                synchronized (System.err) {
                    err.print(READY + ((HttpServing) serving).url() + System.lineSeparator());
                    err.flush();
                }
            } else {
                serving = gateway.serveStdio(new FileInputStream(FileDescriptor.in), stdout);
            }
            Runnable reload = () -> reload(gateway);
            Signals.install(serving::close, reload);
            try (ManifestWatcher watcher = line.watch() ? ManifestWatcher.start(line.manifests(), line.config(), reload) : null) {
                serving.awaitEnd();
            } finally {
                if (cluster != null) {
                    cluster.close();
                }
            }
        } catch (IOException e) {
            err.println("meta-gateway: cannot watch the manifests: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran: it closes the gateway and the log too
        }
        return 0;
    }

    /** Reloads the manifests (SIGHUP, {@code --watch}); the gateway logs what changed, or why nothing did. */
    private static void reload(MetaGateway gateway) {
        try {
            gateway.reload();
        } catch (IllegalStateException closed) {
            // the gateway stops: nothing to reload
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(Serve.class).warn("reloading the manifests failed", e);
        }
    }

    /** The token of {@code --token-file FILE}, else of the environment variable {@value #TOKEN_ENV}; null: none. */
    private static String token(CommandLine line) throws CommandLine.UsageException {
        if (line.tokenFile() == null) {
            String env = System.getenv(TOKEN_ENV);
            return env == null || env.isBlank() ? null : env;
        }
        String token;
        try {
            token = Files.readString(line.tokenFile(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new CommandLine.UsageException("--token-file " + line.tokenFile() + " cannot be read: " + e.getMessage());
        }
        if (token.isEmpty()) {
            throw new CommandLine.UsageException("--token-file " + line.tokenFile() + " is empty");
        }
        return token;
    }

    /** The HTTP options of the command line (the event endpoints are mounted later, when a state is given). */
    private static HttpOptions.Builder httpOptions(CommandLine line, String token) {
        HttpOptions.Builder options = HttpOptions.builder().token(token).oauth(line.oauth()).publicUrl(line.publicUrl());
        line.allowedOrigins().forEach(options::allowOrigin);
        if (line.sessionTimeout() != null) {
            options.sessionIdleTimeout(line.sessionTimeout());
        }
        return options;
    }
}
