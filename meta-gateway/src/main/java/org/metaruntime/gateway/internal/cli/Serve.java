package org.metaruntime.gateway.internal.cli;

import java.io.FileInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;

/** The serving half of the command: stdio until the client closes stdin, then every pod stopped, exit 0. */
final class Serve {

    private Serve() {
    }

    static int serve(MetaGateway.Builder builder, CommandLine line, PrintStream out, PrintStream err) {
        if (!"stdio".equals(line.transport())) {
            err.println("meta-gateway: --transport " + line.transport() + " is not available in this build; use --transport stdio");
            err.println(CommandLine.USAGE);
            return 2;
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
            Serving serving = gateway.serveStdio(new FileInputStream(FileDescriptor.in), stdout);
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
}
