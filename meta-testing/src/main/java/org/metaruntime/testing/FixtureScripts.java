package org.metaruntime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fixture programs every module's tests run as real child processes, as files a child can be started from.
 * Each script is a resource of this module: read where it lies when the classes are a directory, extracted once
 * per JVM to a temporary file when they are a jar.
 *
 * <ul>
 *   <li>{@link #mcpServer()}: a raw MCP stdio server (stdlib python) with switches for faults (hang or fail at a
 *   step, garbage on stdout, ignore SIGTERM or end of stdin, record stdin, a pid file) and tools for every
 *   behaviour the tests need (echo, progress, slow, hang, crash, garbage, server-to-client requests, list
 *   changes...). Its docstring lists them.</li>
 *   <li>{@link #eventLineModule()}: an event-line module (stdlib python) configured through its environment
 *   ({@code FIXTURE_MODE}: answer, stay, stay silent, print garbage, wait, crash, fail its first runs, fail at
 *   random, or write a first line that tests the framing: envelope form, CR LF, no line end, a missing field,
 *   invalid UTF-8, 100 MiB, after a stderr flood, after reading stdin, ignoring SIGTERM; a pid file, a
 *   grandchild holding its stdout and stderr with a pid file of its own, and a run counter). Its docstring lists
 *   the variables.</li>
 * </ul>
 *
 * <pre>{@code
 * List<String> command = FixtureScripts.mcpServerCommand("--pid-file", pidFile.toString(), "--ignore-sigterm");
 * ProcessSpec spec = ProcessSpec.builder("py").command(command).build();
 * }</pre>
 *
 * Thread-safe.
 */
public final class FixtureScripts {

    private static final Map<String, Path> EXTRACTED = new ConcurrentHashMap<>();

    private FixtureScripts() {
    }

    /** The python MCP server fixture ({@code mcp_server.py}). */
    public static Path mcpServer() {
        return script("mcp_server.py");
    }

    /** {@code python3 mcp_server.py switches...}: the command that starts the MCP server fixture. */
    public static List<String> mcpServerCommand(String... switches) {
        return pythonCommand(mcpServer(), switches);
    }

    /** The python event-line module fixture ({@code eventline_module.py}). */
    public static Path eventLineModule() {
        return script("eventline_module.py");
    }

    /** {@code python3 eventline_module.py arguments...}: the command that starts the event-line module fixture. */
    public static List<String> eventLineModuleCommand(String... arguments) {
        return pythonCommand(eventLineModule(), arguments);
    }

    private static List<String> pythonCommand(Path script, String... arguments) {
        List<String> command = new ArrayList<>(List.of(Python.executable(), script.toString()));
        command.addAll(List.of(arguments));
        return command;
    }

    private static Path script(String name) {
        return EXTRACTED.computeIfAbsent(name, FixtureScripts::locate);
    }

    private static Path locate(String name) {
        URL url = FixtureScripts.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("fixture " + name + " is not on the class path");
        }
        try {
            if (url.getProtocol().equals("file")) {
                return Path.of(url.toURI());
            }
            Path dir = Files.createTempDirectory("meta-testing-");
            Path file = dir.resolve(name);
            try (InputStream in = url.openStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            dir.toFile().deleteOnExit();
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
