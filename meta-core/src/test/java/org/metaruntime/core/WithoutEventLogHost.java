package org.metaruntime.core;

import java.nio.file.Path;

/**
 * A host whose class path has meta-core without meta-eventlog or without SQLite's driver: started in a child JVM by
 * {@link WithoutEventLogTest}. Prints one line per step.
 */
public final class WithoutEventLogHost {

    private WithoutEventLogHost() {
    }

    public static void main(String[] args) {
        System.out.println("sqlite on the class path: " + present("org.sqlite.JDBC"));
        System.out.println("meta-eventlog on the class path: " + present("org.metaruntime.eventlog.EventLogs"));
        MetaConfig config = MetaConfig.builder().build();
        RuntimeOptions options = RuntimeOptions.builder().shutdownHook(false).build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options).start()) {
            System.out.println("started without a state directory; event log: " + runtime.eventLog().isPresent());
        }
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options)
                .persistentState(Path.of(args[0])).start()) {
            System.out.println("started with a state directory");
        } catch (ConfigException e) {
            System.out.println("ConfigException at " + e.field() + ": " + e.getMessage());
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, WithoutEventLogHost.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
