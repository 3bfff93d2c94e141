package org.metaruntime.supervisor.internal.spawn;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The launcher: a small JVM that the runtime's JVM starts once, which starts the runtime's children for it, on up
 * to {@value #SPAWNERS} threads. Its own descriptor table stays small, so each of its spawns costs what a spawn
 * costs a JVM holding nothing, however many descriptors the runtime's JVM holds (the JDK's spawn closes every
 * descriptor it inherits, one system call each).
 * A child's stdin, stdout and stderr are FIFOs in a private directory ({@code 0700}) that the launcher makes in
 * batches with one {@code mkfifo}; the launcher opens each read-write (which never blocks on Linux), starts the
 * child on them, answers its pid, and lets go of them (and removes the FIFO files) once the runtime's JVM says it
 * opened its ends. It reports every child's exit after reaping it. It speaks {@link SpawnProtocol} on its stdin
 * and stdout and ends when its stdin does, removing its FIFOs and their directory; its children live on (the
 * runtime stops them, or its host watchdog kills them). It uses only the JDK. One thread reads requests, a few
 * spawn, and the JDK's reaper threads report exits.
 */
public final class SpawnServer {

    /** FIFO sets made per {@code mkfifo}. */
    private static final int BATCH = 32;
    private static final long MKFIFO_WAIT_SECONDS = 30;
    private static final String[] SUFFIXES = {".in", ".out", ".err"};
    private static final int SPAWNERS = 4;

    private final Path dir;
    private final PrintStream out;
    private final ArrayDeque<Integer> ready = new ArrayDeque<>();
    /** The launcher's own ends of the FIFOs of children whose ends the runtime has not opened yet, by request. */
    private final Map<Long, Held> held = new ConcurrentHashMap<>();
    /** Spawns run on a few threads: a spawn blocks its thread until the child has executed its program. */
    private final ExecutorService spawners = Executors.newFixedThreadPool(SPAWNERS,
            DaemonThreads.named("spawner"));
    private int made;

    private record Held(int number, List<RandomAccessFile> ends) {
    }

    private SpawnServer(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
    }

    /** Runs the launcher on this JVM's stdin and stdout until its stdin ends. */
    public static void main(String[] args) throws IOException {
        outliveGroupSignals();
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.US_ASCII);
        System.setOut(new PrintStream(PrintStream.nullOutputStream()));
        Path dir = Files.createTempDirectory("meta-runtime-launcher",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        SpawnServer server = new SpawnServer(dir, out);
        try {
            server.send(SpawnProtocol.READY + " " + SpawnProtocol.encode(dir.toString()));
            server.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII), 1 << 16));
        } finally {
            server.removeFifos();
        }
        System.exit(0);
    }

    /**
     * A terminal's Ctrl-C or a signal sent to the whole process group reaches the launcher too: it catches them and
     * does nothing, so that it outlives the children the runtime is still stopping and reports their exits; it ends
     * when its stdin does. Caught, not ignored: an ignored signal would stay ignored in every child it starts.
     */
    private static void outliveGroupSignals() {
        for (String name : new String[] {"INT", "HUP", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> { });
            } catch (IllegalArgumentException e) {
                // not a signal on this platform, or one the JVM reserves
            }
        }
    }

    private void serve(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case SpawnProtocol.SPAWN -> {
                    SpawnProtocol.SpawnRequest request = SpawnProtocol.parseSpawn(words);
                    spawners.execute(() -> spawn(request));
                }
                case SpawnProtocol.OPENED -> release(Long.parseLong(words[1]));
                default -> throw new IOException("unknown request " + words[0]);
            }
        }
    }

    private void spawn(SpawnProtocol.SpawnRequest request) {
        Held fifos = null;
        try {
            fifos = holdFifos();
            ProcessBuilder builder = new ProcessBuilder(request.argv())
                    .redirectInput(fifo(fifos.number(), 0))
                    .redirectOutput(fifo(fifos.number(), 1))
                    .redirectError(fifo(fifos.number(), 2));
            if (request.workdir() != null) {
                builder.directory(new File(request.workdir()));
            }
            Map<String, String> env = builder.environment();
            env.clear();
            for (String entry : request.env()) {
                int equals = entry.indexOf('=');
                env.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
            Process child = builder.start();
            held.put(request.id(), fifos);
            send(SpawnProtocol.STARTED + " " + request.id() + " " + child.pid() + " " + fifos.number());
            child.onExit().thenAccept(exited ->
                    send(SpawnProtocol.EXIT + " " + exited.pid() + " " + exited.exitValue()));
        } catch (IOException | RuntimeException e) {
            if (fifos != null) {
                closeAndRemove(fifos);
            }
            send(SpawnProtocol.FAILED + " " + request.id() + " "
                    + SpawnProtocol.encode(String.valueOf(e.getMessage())));
        }
    }

    /** A ready FIFO set, opened read-write by the launcher so that neither side's open blocks. */
    private Held holdFifos() throws IOException {
        int number;
        synchronized (ready) {
            if (ready.isEmpty()) {
                makeFifos();
            }
            number = ready.poll();
        }
        List<RandomAccessFile> ends = new ArrayList<>(3);
        try {
            for (int i = 0; i < 3; i++) {
                ends.add(new RandomAccessFile(fifo(number, i), "rw"));
            }
        } catch (IOException e) {
            closeAndRemove(new Held(number, ends));
            throw e;
        }
        return new Held(number, ends);
    }

    private void makeFifos() throws IOException {
        List<String> command = new ArrayList<>(3 + 3 * BATCH);
        command.add("mkfifo");
        command.add("-m");
        command.add("600");
        for (int n = made; n < made + BATCH; n++) {
            for (int i = 0; i < 3; i++) {
                command.add(fifo(n, i).getPath());
            }
        }
        Process mkfifo = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!mkfifo.waitFor(MKFIFO_WAIT_SECONDS, TimeUnit.SECONDS) || mkfifo.exitValue() != 0) {
                mkfifo.destroyForcibly();
                throw new IOException("mkfifo failed in " + dir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making FIFOs", e);
        }
        for (int n = made; n < made + BATCH; n++) {
            ready.add(n);
        }
        made += BATCH;
    }

    private void release(long id) {
        Held fifos = held.remove(id);
        if (fifos != null) {
            closeAndRemove(fifos);
        }
    }

    private void closeAndRemove(Held fifos) {
        for (RandomAccessFile end : fifos.ends()) {
            try {
                end.close();
            } catch (IOException ignored) {
                // nothing was written through it
            }
        }
        for (int i = 0; i < 3; i++) {
            fifo(fifos.number(), i).delete();
        }
    }

    private void removeFifos() {
        spawners.shutdown();
        try {
            spawners.awaitTermination(MKFIFO_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        held.values().forEach(this::closeAndRemove);
        held.clear();
        synchronized (ready) {
            for (int number : ready) {
                for (int i = 0; i < 3; i++) {
                    fifo(number, i).delete();
                }
            }
            ready.clear();
        }
        dir.toFile().delete();
    }

    private File fifo(int number, int stream) {
        return dir.resolve(number + SUFFIXES[stream]).toFile();
    }

    private void send(String line) {
        synchronized (out) {
            out.print(line);
            out.print('\n');
            out.flush();
        }
    }
}
