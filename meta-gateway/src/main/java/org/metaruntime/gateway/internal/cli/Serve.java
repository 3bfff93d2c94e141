package org.metaruntime.gateway.internal.cli;

import java.io.PrintStream;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.MetaGateway;

/** The serving half of the command. */
final class Serve {

    private Serve() {
    }

    static int serve(MetaGateway.Builder builder, CommandLine line, PrintStream out, PrintStream err) {
        if (!"stdio".equals(line.transport())) {
            err.println("meta-gateway: --transport " + line.transport() + " is not available in this build; use --transport stdio");
            err.println(CommandLine.USAGE);
            return 2;
        }
        try {
            builder.build();
        } catch (ManifestException e) {
            e.problems().forEach(err::println);
            return 1;
        }
        err.println("meta-gateway: serving over stdio is not available in this build; use --validate");
        return 2;
    }
}
