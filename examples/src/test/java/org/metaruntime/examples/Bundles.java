package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.metaruntime.testing.Tools;

/**
 * The example bundles of {@code examples/bundles}, one per language, built here from source with the toolchains
 * on the machine (javac, go, rustc, gcc) into {@code target/bundles}, or taken prebuilt from the npm packages the
 * build installed (Go's kubernetes-mcp-server, C#'s @azure/mcp). Each is a plain MCP server over stdio.
 * Thread-safe: the build runs once per JVM.
 */
final class Bundles {

    /** The name every built bundle is greeted with: non-ASCII on purpose. */
    static final String NAME = "Zoë 世界";

    /**
     * One bundle: how to start it and one call it answers.
     *
     * @param id             module id and pod name
     * @param language       what it is written in
     * @param command        argv
     * @param workdir        where it runs
     * @param env            what it needs in its environment
     * @param tool           a tool it serves
     * @param arguments      that tool's arguments (JSON)
     * @param expected       text the answer contains
     * @param startupTimeout how long its start may take on a loaded machine
     */
    record Bundle(String id, String language, List<String> command, Path workdir, Map<String, String> env,
                  String tool, String arguments, String expected, Duration startupTimeout) {
    }

    private static List<Bundle> built;

    private Bundles() {
    }

    static Path root() {
        return Fixtures.examplesDir().resolve("bundles");
    }

    /** Every bundle, built on first use. */
    static synchronized List<Bundle> all() throws Exception {
        if (built == null) {
            built = build();
        }
        return built;
    }

    static Bundle get(String id) throws Exception {
        return all().stream().filter(b -> b.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<Bundle> build() throws Exception {
        Path out = Fixtures.examplesDir().resolve("target/bundles");
        Files.createDirectories(out);
        String hello = "{\"name\":\"" + NAME + "\"}";
        Duration quick = Duration.ofSeconds(30);
        List<Bundle> bundles = new ArrayList<>();

        bundles.add(new Bundle("python", "Python", List.of(Tools.required("python3"), "hello_bundle.py"),
                root().resolve("python"), Map.of(), "hello", hello, "Hello, " + NAME + "! (from Python)", quick));

        Path typescript = root().resolve("typescript/dist/hello.js");
        assertThat(typescript).as("the TypeScript bundle, compiled by the build (build/npm-ci.mjs --tsc)").isRegularFile();
        bundles.add(new Bundle("typescript", "TypeScript", List.of(Tools.required("node"), typescript.toString()),
                root().resolve("typescript"), Map.of(), "hello", hello, "Hello, " + NAME + "! (from TypeScript)", quick));

        Path javaOut = out.resolve("java");
        String sdkClassPath = sdkClassPath();
        compileJava(root().resolve("java/HelloBundle.java"), javaOut, sdkClassPath);
        bundles.add(new Bundle("java", "Java", List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", javaOut + File.pathSeparator + sdkClassPath, "HelloBundle"),
                javaOut, Map.of(), "hello", hello, "Hello, " + NAME + "! (from Java)", quick));

        Path goOut = out.resolve("go");
        Files.createDirectories(goOut);
        run(List.of(Tools.required("go"), "build", "-o", goOut.resolve("hello").toString(), "hello.go"), root().resolve("go"),
                Map.of("GOCACHE", goOut.resolve("cache").toString(), "GOPATH", goOut.resolve("path").toString(),
                        "GO111MODULE", "off", "CGO_ENABLED", "0"));
        bundles.add(new Bundle("go", "Go", List.of(goOut.resolve("hello").toString()), goOut, Map.of(), "hello", hello,
                "Hello, " + NAME + "! (from Go)", quick));

        Path kubeconfig = out.resolve("kubeconfig.yaml");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: fake
                  cluster: {server: "https://127.0.0.1:1"}
                contexts:
                - name: fake
                  context: {cluster: fake, user: fake, namespace: default}
                current-context: fake
                users:
                - name: fake
                  user: {token: not-a-real-token}
                """, StandardCharsets.UTF_8);
        Path kubernetes = prebuilt("kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64");
        bundles.add(new Bundle("kubernetes", "Go (prebuilt, npm kubernetes-mcp-server)", List.of(kubernetes.toString(),
                "--kubeconfig", kubeconfig.toString(), "--read-only", "--disable-multi-cluster"), out, Map.of(),
                "configuration_view", "{\"minified\":true}", "current-context: fake", quick));

        Path rustOut = out.resolve("rust");
        Files.createDirectories(rustOut);
        run(List.of(Tools.required("rustc"), "-O", "-o", rustOut.resolve("hello").toString(), "hello.rs"),
                root().resolve("rust"), Map.of());
        bundles.add(new Bundle("rust", "Rust", List.of(rustOut.resolve("hello").toString()), rustOut, Map.of(), "hello",
                hello, "Hello, " + NAME + "! (from Rust)", quick));

        Path cOut = out.resolve("c");
        Files.createDirectories(cOut);
        run(List.of(Tools.required("gcc"), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o",
                cOut.resolve("hello").toString(), "hello.c"), root().resolve("c"), Map.of());
        bundles.add(new Bundle("c", "C", List.of(cOut.resolve("hello").toString()), cOut, Map.of(), "hello", hello,
                "Hello, " + NAME + "! (from C)", quick));

        Path azmcp = prebuilt("@azure/mcp-linux-x64/dist/azmcp");
        bundles.add(new Bundle("csharp", "C# (prebuilt, npm @azure/mcp)", List.of(azmcp.toString(), "server", "start",
                "--namespace", "azureterraformbestpractices"), out, Map.of("AZURE_MCP_COLLECT_TELEMETRY", "false",
                "DOTNET_CLI_TELEMETRY_OPTOUT", "1"), "azureterraformbestpractices",
                "{\"intent\":\"list the Terraform best practices commands\",\"learn\":true}",
                "azureterraformbestpractices_get", Duration.ofSeconds(120)));
        return List.copyOf(bundles);
    }

    /** The class path of the Java SDK: meta-module and Jackson, taken from this JVM's class path. */
    private static String sdkClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("meta-module") || entry.contains("jackson-"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static Path prebuilt(String relative) {
        Path binary = root().resolve("prebuilt/node_modules").resolve(relative);
        assertThat(binary).as("installed by the build (build/npm-ci.mjs: npm ci)").isRegularFile();
        return binary;
    }

    private static void compileJava(Path source, Path out, String classPath) throws IOException {
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, null, errors, "-encoding", "UTF-8", "-cp", classPath, "-d", out.toString(),
                source.toString());
        assertThat(status).as("javac %s: %s", source, errors.toString(StandardCharsets.UTF_8)).isZero();
    }

    private static void run(List<String> command, Path workdir, Map<String, String> env) throws Exception {
        Path log = Files.createTempFile("bundle-build", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workdir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(new LinkedHashMap<>(env));
        Process process = builder.start();
        try {
            boolean done = process.waitFor(300, TimeUnit.SECONDS);
            assertThat(done).as("%s finished within 300 s", command).isTrue();
            assertThat(process.exitValue()).as("%s: %s", command, Files.readString(log)).isZero();
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }
}
