package org.metaruntime.supervisor.internal.spawn;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.metaruntime.supervisor.internal.HostWatchdog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's side of one launcher process ({@link SpawnServer}): sends spawn requests, opens each child's FIFOs,
 * and completes each child's exit from the launcher's report. One daemon thread, {@code meta-supervisor-launcher},
 * reads the launcher's answers. When the launcher ends without being closed, every child it started that is still
 * alive is killed (its exit could not be seen any more) and reported with exit code {@value #KILLED_CODE}.
 * Thread-safe.
 */
final class SpawnClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpawnClient.class);
    /** How long the launcher gets to start, and to answer a spawn request. */
    private static final long ANSWER_SECONDS = 30;
    /** The exit code reported for a child whose launcher died: 128 + SIGKILL, as the JDK reports a killed child. */
    static final int KILLED_CODE = 137;

    private record Started(long pid, int fifoNumber, ProcessHandle handle, CompletableFuture<Integer> exit) {
    }

    private final Process launcher;
    private final Writer requests;
    private final CompletableFuture<Path> fifoDir = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<Started>> pending = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<Integer>> exits = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile boolean closing;

    private SpawnClient(Process launcher) {
        this.launcher = launcher;
        this.requests = new OutputStreamWriter(launcher.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /**
     * Starts a launcher JVM ({@code java} of this JVM's {@code java.home}, this class's code source as its class
     * path) and waits until it is ready.
     *
     * @throws IOException when it cannot be started or does not answer in time
     */
    static SpawnClient start() throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path classes = codeSource();
        List<String> command = new ArrayList<>(List.of(java.toString(),
                "-Xms8m", "-Xmx48m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1", "-Xshare:auto", "-XX:-UsePerfData",
                "-cp", classes.toString(), SpawnServer.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(new File("/"))
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        // Not the host token: the launcher ends by itself when this JVM does (its stdin ends), and removes its
        // FIFOs; the host watchdog's SIGKILL would leave them behind.
        builder.environment().remove(ProcessSpec.HOST_TOKEN_ENV);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        HostWatchdog.ensureStarted();
        SpawnClient client = new SpawnClient(builder.start());
        Thread reader = DaemonThreads.named("meta-supervisor-launcher").newThread(client::readAnswers);
        reader.start();
        try {
            client.fifoDir.get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            client.close();
            throw new IOException("the launcher did not start: " + e, e);
        }
        LOG.debug("launcher started: pid {}", client.launcher.pid());
        return client;
    }

    private static Path codeSource() throws IOException {
        try {
            Path path = Path.of(SpawnServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.exists(path)) {
                throw new IOException("the class path of the launcher, " + path + ", is not a file");
            }
            return path;
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("the launcher's classes are not in a file or directory: " + e, e);
        }
    }

    /** The directory of the launcher's FIFOs (it removes it when it ends). */
    Path fifoDir() {
        return fifoDir.join();
    }

    /** The launcher's pid. */
    long pid() {
        return launcher.pid();
    }

    /** Completes when the launcher has ended and every child it reported has an exit. */
    CompletableFuture<Void> ended() {
        return ended;
    }

    /**
     * Starts a child through the launcher and opens its stdio.
     *
     * @param env the child's whole environment
     * @throws IOException with the launcher's reason when the child cannot be started
     */
    Process spawn(List<String> argv, Path workdir, Map<String, String> env) throws IOException {
        long id = ids.incrementAndGet();
        CompletableFuture<Started> answer = new CompletableFuture<>();
        pending.put(id, answer);
        Started started;
        try {
            write(SpawnProtocol.spawn(id, workdir == null ? null : workdir.toString(), argv, env));
            started = answer.get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the launcher did not answer in " + ANSWER_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the launcher", e);
        } finally {
            pending.remove(id);
        }
        List<AutoCloseable> opened = new ArrayList<>(3);
        try {
            Path dir = fifoDir.join();
            // The launcher holds every FIFO open read-write until it reads "opened": none of these opens blocks.
            OutputStream stdin = add(opened, new FileOutputStream(dir.resolve(started.fifoNumber() + ".in").toFile()));
            InputStream stdout = add(opened, new FileInputStream(dir.resolve(started.fifoNumber() + ".out").toFile()));
            InputStream stderr = add(opened, new FileInputStream(dir.resolve(started.fifoNumber() + ".err").toFile()));
            return new LaunchedChild(started.pid(), started.handle(), stdin, stdout, stderr, started.exit());
        } catch (IOException | RuntimeException e) {
            started.handle().destroyForcibly();
            for (AutoCloseable stream : opened) {
                try {
                    stream.close();
                } catch (Exception ignored) {
                    // closing what was opened for a child that is being killed
                }
            }
            throw e;
        } finally {
            write(SpawnProtocol.OPENED + " " + id);
        }
    }

    private static <T extends AutoCloseable> T add(List<AutoCloseable> opened, T stream) {
        opened.add(stream);
        return stream;
    }

    private void write(String line) throws IOException {
        synchronized (requests) {
            requests.write(line);
            requests.write('\n');
            requests.flush();
        }
    }

    private void readAnswers() {
        try (BufferedReader answers = new BufferedReader(
                new InputStreamReader(launcher.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = answers.readLine()) != null) {
                answer(line.split(" "));
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                LOG.error("reading the launcher's answers failed", e);
            }
        } finally {
            launcherEnded();
        }
    }

    private void answer(String[] words) {
        switch (words[0]) {
            case SpawnProtocol.READY -> fifoDir.complete(Path.of(SpawnProtocol.decode(words[1])));
            case SpawnProtocol.STARTED -> {
                long pid = Long.parseLong(words[2]);
                CompletableFuture<Integer> exit = new CompletableFuture<>();
                exits.put(pid, exit);
                ProcessHandle handle = ProcessHandle.of(pid).orElseGet(() -> new GoneHandle(pid));
                completePending(words[1], new Started(pid, Integer.parseInt(words[3]), handle, exit));
            }
            case SpawnProtocol.FAILED -> {
                CompletableFuture<Started> answer = pending.get(Long.parseLong(words[1]));
                if (answer != null) {
                    answer.completeExceptionally(new IOException(SpawnProtocol.decode(words[2])));
                }
            }
            case SpawnProtocol.EXIT -> {
                CompletableFuture<Integer> exit = exits.remove(Long.parseLong(words[1]));
                if (exit != null) {
                    exit.complete(Integer.parseInt(words[2]));
                }
            }
            default -> LOG.warn("the launcher sent an unknown answer: {}", words[0]);
        }
    }

    private void completePending(String id, Started started) {
        CompletableFuture<Started> answer = pending.get(Long.parseLong(id));
        if (answer == null || !answer.complete(started)) {
            // Its requester gave up waiting: nobody will ever own this child, and the launcher may let go of its FIFOs.
            started.handle().destroyForcibly();
            try {
                write(SpawnProtocol.OPENED + " " + id);
            } catch (IOException e) {
                LOG.debug("telling the launcher to let go of request {}: {}", id, e.toString());
            }
        }
    }

    private void launcherEnded() {
        IOException gone = new IOException("the launcher (pid " + launcher.pid() + ") ended");
        fifoDir.completeExceptionally(gone);
        pending.values().forEach(answer -> answer.completeExceptionally(gone));
        if (!exits.isEmpty()) {
            LOG.error("the launcher (pid {}) ended with {} children alive; killing them", launcher.pid(),
                    exits.size());
            exits.forEach((pid, exit) -> {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                exit.complete(KILLED_CODE);
            });
            exits.clear();
        }
        launcher.destroyForcibly();
        if (!fifoDir.isCompletedExceptionally()) {
            removeLeftovers(fifoDir.join());
        }
        ended.complete(null);
    }

    /** Removes what a launcher that was killed left in its FIFO directory, and the directory. */
    private void removeLeftovers(Path dir) {
        try {
            launcher.waitFor(ANSWER_SECONDS, TimeUnit.SECONDS);
            if (Files.isDirectory(dir)) {
                try (var files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        Files.deleteIfExists(file);
                    }
                }
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            LOG.warn("could not remove the launcher's FIFO directory {}: {}", dir, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes the launcher's stdin: it removes its FIFOs and exits. Children it started live on (their stop is the
     * runtime's). Does not wait.
     */
    @Override
    public void close() {
        closing = true;
        try {
            requests.close();
        } catch (IOException e) {
            LOG.debug("closing the launcher's stdin: {}", e.toString());
        }
    }

    /** Whether {@link #close()} was called. */
    boolean closing() {
        return closing;
    }
}
