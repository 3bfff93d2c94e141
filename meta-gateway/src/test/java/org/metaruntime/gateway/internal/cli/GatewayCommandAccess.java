package org.metaruntime.gateway.internal.cli;

import java.io.PrintStream;

/** Runs the command in-process for tests of other packages. */
public final class GatewayCommandAccess {

    private GatewayCommandAccess() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return GatewayCommand.run(args, out, err);
    }
}
