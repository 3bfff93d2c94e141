package org.metaruntime.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.ProcessLeaks;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The python MCP fixture as modules declared in properties, each with its own pid file. */
final class FixtureModules {

    private final Path dir;

    FixtureModules() {
        try {
            dir = Files.createTempDirectory("meta-spring-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path dir() {
        return dir;
    }

    Path pidfile(String id) {
        return dir.resolve(id + ".pids");
    }

    /** The fixture's command for module {@code id}, with {@code switches}. */
    List<String> command(String id, String... switches) {
        List<String> arguments = new ArrayList<>(List.of(dir.toString(), "--pid-file", pidfile(id).toString()));
        arguments.addAll(List.of(switches));
        return FixtureScripts.mcpServerCommand(arguments.toArray(String[]::new));
    }

    /** Declares module {@code id}'s command under {@code meta.runtime.modules.<id>.command}. */
    void declare(DynamicPropertyRegistry registry, String id, String... switches) {
        List<String> command = command(id, switches);
        for (int i = 0; i < command.size(); i++) {
            String argument = command.get(i);
            registry.add("meta.runtime.modules." + id + ".command[" + i + "]", () -> argument);
        }
    }

    /** The pids module {@code id}'s processes wrote. */
    List<Long> pids(String id) {
        return ProcessLeaks.pidsIn(pidfile(id));
    }

    /** Every process of every module is gone. */
    void assertAllGone(String... ids) {
        for (String id : ids) {
            ProcessLeaks.assertAllGone(pids(id));
        }
    }
}
