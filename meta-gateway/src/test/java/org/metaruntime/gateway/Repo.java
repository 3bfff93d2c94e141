package org.metaruntime.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.metaruntime.testing.Tools;

/** The repository's paths and tools on PATH, shared by the gateway's tests (their leak check is {@code LeakCheck}). */
final class Repo {

    /** The repository root (the module's parent folder). */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    static final Path COMMAND = ROOT.resolve("bin/meta-gateway");
    static final Path EXAMPLES = ROOT.resolve("examples/manifests");

    private Repo() {
    }

    /** The result of a finished command. */
    record Run(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.isEmpty() ? List.of() : List.of(stdout.split("\n"));
        }
    }

    /** Runs {@code bin/meta-gateway args} to its end (stdin closed at once). */
    static Run gateway(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(tool("sh"), COMMAND.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("gateway-out", ".txt");
        Path err = Files.createTempFile("gateway-err", ".txt");
        try {
            Process process = new ProcessBuilder(command).directory(ROOT.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("meta-gateway did not end within 60 s");
            }
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The absolute path of {@code name} on PATH; fails when it is missing. */
    static String tool(String name) {
        return Tools.required(name);
    }
}
