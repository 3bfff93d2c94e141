package org.metaruntime.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL server the tests use: the one whose JDBC URL is in {@value #URL_VARIABLE} (CI starts it), or
 * else one this JVM starts from the PostgreSQL binaries in a temporary directory (as the {@code postgres}
 * user when running as root) and stops at exit. No PostgreSQL at all is a test failure, never a skip.
 * Each call of {@link #freshDatabase()} creates an empty database on it. Needs the PostgreSQL JDBC driver.
 */
public final class PostgresServer {

    /** The environment variable with the JDBC URL of a running server (user with CREATEDB). */
    public static final String URL_VARIABLE = "META_EVENTLOG_PG_URL";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static PostgresServer instance;

    private final String adminUrl;
    private final Path dataDir;
    private final Path binDir;

    private PostgresServer(String adminUrl, Path binDir, Path dataDir) {
        this.adminUrl = adminUrl;
        this.binDir = binDir;
        this.dataDir = dataDir;
    }

    /** The server of this test JVM, started on first use. */
    public static synchronized PostgresServer get() {
        if (instance == null) {
            String url = System.getenv(URL_VARIABLE);
            instance = url != null && !url.isBlank() ? new PostgresServer(url, null, null) : startThrowaway();
        }
        return instance;
    }

    /** The JDBC URL of the server's maintenance database. */
    public String adminUrl() {
        return adminUrl;
    }

    /** A new, empty database on the server; returns its JDBC URL. */
    public String freshDatabase() {
        String name = "meta_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = dataSource(adminUrl).getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
        } catch (SQLException e) {
            throw new AssertionError("could not create a test database on " + adminUrl + ": " + e.getMessage(), e);
        }
        return withDatabase(adminUrl, name);
    }

    /** Drops the database of {@code url} (created by {@link #freshDatabase()}), closing its connections. */
    public void dropDatabase(String url) {
        String path = url.substring(0, url.indexOf('?') < 0 ? url.length() : url.indexOf('?'));
        String name = path.substring(path.lastIndexOf('/') + 1);
        try (Connection c = dataSource(adminUrl).getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new AssertionError("could not drop the test database " + name + ": " + e.getMessage(), e);
        }
    }

    public static PGSimpleDataSource dataSource(String url) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(url);
        return ds;
    }

    /** {@code url} with its database replaced by {@code name}. */
    public static String withDatabase(String url, String name) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String params = query < 0 ? "" : url.substring(query);
        int slash = base.indexOf('/', "jdbc:postgresql://".length());
        return (slash < 0 ? base : base.substring(0, slash)) + "/" + name + params;
    }

    private static PostgresServer startThrowaway() {
        Path bin = findBinaries();
        try {
            Path dir = Files.createTempDirectory("meta-eventlog-pg-");
            Path data = dir.resolve("data");
            boolean root = "root".equals(System.getProperty("user.name"));
            if (root) {
                run(List.of("chown", "postgres:postgres", dir.toString()), dir);
            }
            run(asPostgres(root, bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--no-sync"), dir);
            for (int attempt = 1; ; attempt++) {
                int port = freePort();
                try {
                    run(asPostgres(root, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60",
                            "-l", dir.resolve("server.log").toString(), "-o",
                            "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1", "start"), dir);
                    PostgresServer server = new PostgresServer(
                            "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres", bin, data);
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(root, dir),
                            "meta-eventlog-test-pg-stop"));
                    return server;
                } catch (IOException e) {
                    if (attempt == 3) {
                        throw e;
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("could not start a throwaway PostgreSQL server from " + bin + ": "
                    + e.getMessage(), e);
        }
    }

    private void stop(boolean root, Path dir) {
        try {
            run(asPostgres(root, binDir.resolve("pg_ctl").toString(), "-D", dataDir.toString(), "-w", "-t", "60",
                    "-m", "fast", "stop"), dir);
        } catch (IOException | InterruptedException e) {
            System.err.println("could not stop the test PostgreSQL server in " + dataDir + ": " + e.getMessage());
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory; the OS cleans it eventually.
        }
    }

    /** The pid of the throwaway server's postmaster, or -1 for a server this JVM did not start. */
    public long postmasterPid() throws IOException {
        if (dataDir == null) {
            return -1;
        }
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
    }

    private static Path findBinaries() {
        List<Path> candidates = new ArrayList<>();
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> versions = Files.list(lib)) {
                versions.map(v -> v.resolve("bin")).sorted(Comparator.reverseOrder()).forEach(candidates::add);
            } catch (IOException ignored) {
                // Fall through to PATH.
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir));
            }
        }
        for (Path dir : candidates) {
            if (Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"))) {
                return dir;
            }
        }
        throw new AssertionError("PostgreSQL is required by these tests: set " + URL_VARIABLE
                + " to the JDBC URL of a server, or install PostgreSQL (initdb and pg_ctl not found in "
                + candidates + ")");
    }

    private static List<String> asPostgres(boolean root, String... command) {
        List<String> argv = new ArrayList<>();
        if (root) {
            argv.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        argv.addAll(List.of(command));
        return argv;
    }

    private static void run(List<String> argv, Path dir) throws IOException, InterruptedException {
        Path out = Files.createTempFile("meta-eventlog-pg-cmd-", ".log");
        try {
            Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IOException(String.join(" ", argv) + " did not finish within 120 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", argv) + " exited with " + p.exitValue() + ": "
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
