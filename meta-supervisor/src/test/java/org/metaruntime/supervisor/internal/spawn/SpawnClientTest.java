package org.metaruntime.supervisor.internal.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.HostWatchdog;
import org.metaruntime.testing.ProcessLeaks;

/** The launcher with real children: its protocol, their output, exits and kills, and what its end leaves. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpawnClientTest {

    @TempDir
    Path tmp;
    private SpawnClient client;
    private ProcessHandle launcher;
    private final List<Process> children = new ArrayList<>();

    @BeforeEach
    void startLauncher() throws IOException {
        client = SpawnClient.start();
        launcher = ProcessHandle.of(client.pid()).orElseThrow();
    }

    @AfterEach
    void nothingLeft() {
        children.forEach(Process::destroyForcibly);
        client.close();
        ProcessLeaks.assertDead(launcher);
        for (Process child : children) {
            ProcessLeaks.assertDead(child.toHandle());
        }
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> client.ended().isDone());
        assertThat(client.fifoDir()).doesNotExist();
        ProcessLeaks.assertNoThreadNamed("meta-supervisor-launcher");
    }

    private Process spawn(String script, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        argv.addAll(List.of(args));
        Process child = client.spawn(argv, tmp, Map.of("PATH", System.getenv("PATH")));
        children.add(child);
        return child;
    }

    private static CompletableFuture<byte[]> readAll(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void theProtocolCarriesAnyArgvEnvironmentAndWorkingDirectory() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("A", "x = y");
        env.put("EMPTY", "");
        env.put("LINES", "one\ntwo\r\n three");
        List<String> argv = List.of("prog", "", " spaced  out ", "new\nline", "ünï €", "'\"$(rm -rf)`", "-");
        String line = SpawnProtocol.spawn(42, "/a dir/with\nnewline", argv, env);

        assertThat(line).doesNotContain("\n");
        SpawnProtocol.SpawnRequest request = SpawnProtocol.parseSpawn(line.split(" "));
        assertThat(request.id()).isEqualTo(42);
        assertThat(request.workdir()).isEqualTo("/a dir/with\nnewline");
        assertThat(request.argv()).isEqualTo(argv);
        assertThat(request.env()).containsExactly("A=x = y", "EMPTY=", "LINES=one\ntwo\r\n three");
        assertThat(SpawnProtocol.parseSpawn(SpawnProtocol.spawn(1, null, List.of("x"), Map.of()).split(" "))
                .workdir()).isNull();
    }

    @Test
    void theChildGetsItsArgvEnvironmentAndWorkingDirectoryExactly() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("ODD", "a=b \"c\" $(d)\nnext");
        Process child = client.spawn(List.of("sh", "-c", "printf '%s|' \"$@\"; printf '%s|' \"$ODD\"; pwd", "sh",
                "", " two  words ", "ünï", "$HOME"), tmp, env);
        children.add(child);
        child.getOutputStream().close();

        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor()).isZero();
        assertThat(out).isEqualTo("| two  words |ünï|$HOME|a=b \"c\" $(d)\nnext|" + tmp.toRealPath() + "\n");
    }

    @Test
    void muchOutputOnStdoutAndStderrArrivesWhole() throws Exception {
        Process child = spawn("head -c 3000000 /dev/zero; head -c 2000000 /dev/zero >&2; "
                + "head -c 1000000 /dev/zero; exit 3");
        CompletableFuture<byte[]> out = readAll(child.getInputStream());
        CompletableFuture<byte[]> err = readAll(child.getErrorStream());

        assertThat(out.get(30, TimeUnit.SECONDS)).hasSize(4_000_000);
        assertThat(err.get(30, TimeUnit.SECONDS)).hasSize(2_000_000);
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(3);
        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void stdinReachesTheChildAndItsEndEndsIt() throws Exception {
        Process child = spawn("cat; exit 5");
        CompletableFuture<byte[]> out = readAll(child.getInputStream());
        child.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
        child.getOutputStream().close();

        assertThat(new String(out.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("hello\n");
        assertThat(child.onExit().get(30, TimeUnit.SECONDS).exitValue()).isEqualTo(5);
    }

    @Test
    void aChildIsStoppedBySignalsToItsPid() throws Exception {
        Process termed = spawn("exec sleep 600");
        Process killed = spawn("trap '' TERM; exec sleep 600");
        assertThat(termed.isAlive()).isTrue();
        assertThatThrownBy(termed::exitValue).isInstanceOf(IllegalThreadStateException.class);
        assertThat(termed.toHandle().pid()).isEqualTo(termed.pid());

        termed.destroy();
        killed.destroyForcibly();

        assertThat(termed.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(termed.exitValue()).isEqualTo(128 + 15);
        assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(killed.exitValue()).isEqualTo(128 + 9);
    }

    @Test
    void aChildThatCannotStartFailsItsSpawnAndLeavesNoFifo() throws Exception {
        assertThatThrownBy(() -> client.spawn(List.of(tmp.resolve("missing").toString()), tmp, Map.of()))
                .isInstanceOf(IOException.class).hasMessageContaining("missing");
        assertThatThrownBy(() -> client.spawn(List.of("true"), tmp.resolve("no-dir"), Map.of()))
                .isInstanceOf(IOException.class);

        Process after = spawn("exit 0");
        assertThat(after.waitFor(30, TimeUnit.SECONDS)).isTrue();
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> usedFifosIn(client.fifoDir(), 3).isEmpty());
    }

    @Test
    void theLauncherOutlivesSignalsSentToTheWholeProcessGroup() throws Exception {
        Process child = spawn("read -r _; exit 4");
        for (String signal : List.of("INT", "HUP", "TERM")) {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(client.pid())).start();
            assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
        }
        // The launcher read and answered a spawn after the signals: it handled them by then, and is alive; its
        // children still take the signals' default actions.
        Process after = spawn("kill -TERM $$; sleep 30");
        assertThat(after.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(after.exitValue()).isEqualTo(128 + 15);
        assertThat(launcher.isAlive()).isTrue();

        child.getOutputStream().close();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(4);
    }

    @Test
    void aLauncherThatDiesTakesItsChildrenWithIt() throws Exception {
        Process child = spawn("exec sleep 600");
        ProcessHandle.of(client.pid()).orElseThrow().destroyForcibly();

        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(SpawnClient.KILLED_CODE);
        ProcessLeaks.assertDead(child.toHandle());
        assertThatThrownBy(() -> client.spawn(List.of("true"), tmp, Map.of())).isInstanceOf(IOException.class);
    }

    @Test
    void closingTheLauncherLeavesNoProcessFifoThreadOrDescriptor() throws Exception {
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> HostWatchdog.pid().isPresent());
        echo();
        int before = descriptors();
        for (int i = 0; i < 20; i++) {
            echo();
        }
        Path dir = client.fifoDir();
        client.close();

        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> client.ended().isDone());
        assertThat(dir).doesNotExist();
        // Its stdin and stdout pipes are closed too.
        await("descriptors back under " + (before - 2) + " from " + before).atMost(ProcessLeaks.DEAD_WITHIN)
                .until(() -> descriptors() <= before - 2);
    }

    /** A child that echoes, read to its end, its three streams closed. */
    private void echo() throws Exception {
        Process child = spawn("echo out; echo err >&2");
        try (InputStream out = child.getInputStream(); InputStream err = child.getErrorStream()) {
            assertThat(readAll(out).get(30, TimeUnit.SECONDS)).hasSize(4);
            assertThat(readAll(err).get(30, TimeUnit.SECONDS)).hasSize(4);
        }
        child.getOutputStream().close();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** The names in the FIFO directory of the FIFO sets numbered below {@code count} (handed out in order). */
    private static List<String> usedFifosIn(Path dir, int count) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> Integer.parseInt(name.substring(0, name.indexOf('.'))) < count).toList();
        }
    }

    private static int descriptors() {
        String[] names = new File("/proc/self/fd").list();
        return names == null ? 0 : names.length;
    }
}
