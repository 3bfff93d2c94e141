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
import org.metaruntime.gateway.HttpOptions;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;
import org.metaruntime.gateway.internal.http.HttpServing;
import sun.misc.Signal;

/**
 * The serving half of the command. Stdio: until the client closes stdin. HTTP: until SIGTERM or SIGINT, after the
 * readiness line {@code meta-gateway listening on http://HOST:PORT/mcp} on stderr. Then every pod is stopped and
 * the exit code is 0.
 */
final class Serve {

    /** The environment variable that may carry the bearer token. */
    static final String TOKEN_ENV = "META_GATEWAY_TOKEN";

    private Serve() {
    }

    static int serve(MetaGateway.Builder builder, CommandLine line, PrintStream out, PrintStream err) {
        boolean http = !"stdio".equals(line.transport());
        HttpOptions httpOptions = null;
        InetSocketAddress address = null;
        if (http) {
            try {
                httpOptions = httpOptions(line);
            } catch (IllegalArgumentException | CommandLine.UsageException e) {
                err.println("meta-gateway: " + e.getMessage());
                err.println(CommandLine.USAGE);
                return 2;
            }
            address = new InetSocketAddress(line.host(), line.port());
            if (address.isUnresolved()) {
                err.println("meta-gateway: --host " + line.host() + " cannot be resolved");
                err.println(CommandLine.USAGE);
                return 2;
            }
            if (httpOptions.token().isEmpty() && !HttpServing.isLoopback(address)) {
                err.println("meta-gateway: --host " + line.host() + " is not a loopback address: give a token with --token-file FILE"
                        + " or the environment variable " + TOKEN_ENV);
                err.println(CommandLine.USAGE);
                return 2;
            }
        }
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
        Thread hook = new Thread(gateway::close, "meta-gateway-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (gateway) {
            Serving serving;
            if (http) {
                try {
                    serving = gateway.serveHttp(address, httpOptions);
                } catch (UncheckedIOException e) {
                    err.println("meta-gateway: cannot listen on " + line.host() + ":" + line.port() + ": " + e.getCause().getMessage());
                    return 1;
                }
                onSignals(serving);
                err.println("meta-gateway listening on " + ((HttpServing) serving).url());
                err.flush();
            } else {
                serving = gateway.serveStdio(new FileInputStream(FileDescriptor.in), stdout);
            }
            serving.awaitEnd();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran: it closes the gateway too
        }
        return 0;
    }

    private static HttpOptions httpOptions(CommandLine line) throws CommandLine.UsageException {
        HttpOptions.Builder options = HttpOptions.builder();
        String token = null;
        if (line.tokenFile() != null) {
            try {
                token = Files.readString(line.tokenFile(), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new CommandLine.UsageException("--token-file " + line.tokenFile() + " cannot be read: " + e.getMessage());
            }
            if (token.isEmpty()) {
                throw new CommandLine.UsageException("--token-file " + line.tokenFile() + " is empty");
            }
        } else {
            String env = System.getenv(TOKEN_ENV);
            if (env != null && !env.isBlank()) {
                token = env;
            }
        }
        options.token(token);
        line.allowedOrigins().forEach(options::allowOrigin);
        if (line.sessionTimeout() != null) {
            options.sessionIdleTimeout(line.sessionTimeout());
        }
        return options.build();
    }

    /** SIGTERM and SIGINT end serving (calls in flight finish within the shutdown timeout); the exit code stays 0. */
    private static void onSignals(Serving serving) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    Thread stopper = new Thread(serving::close, "meta-gateway-stop");
                    stopper.setDaemon(true);
                    stopper.start();
                });
            } catch (IllegalArgumentException unavailable) {
                // no such signal here: the shutdown hook still stops every pod
            }
        }
    }
}
