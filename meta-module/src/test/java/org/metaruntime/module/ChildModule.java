package org.metaruntime.module;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.metaruntime.testing.Tools;

/** A sample module as a child process on real pipes; its stdout read as raw UTF-8 lines. */
final class ChildModule implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    /** {@link SampleModule} in a child JVM with {@code jvmOptions}. */
    static ChildModule java(List<String> jvmOptions) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SampleModule.class.getName());
        return new ChildModule(command, Map.of());
    }

    /** {@code sample_module.py} (the test resource) on {@code meta_module.py}, with {@code env} added. */
    static ChildModule python(Map<String, String> env) throws IOException {
        Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("META_MODULE_PYTHON", module.resolve("python").toString());
        return new ChildModule(List.of(Tools.required("python3"),
                module.resolve("src/test/resources/python/sample_module.py").toString()), all);
    }

    /** {@code dist/test/sample_module.js} (compiled from {@code typescript/test/sample_module.ts}) with {@code env} added. */
    static ChildModule node(Map<String, String> env) throws IOException {
        Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        return new ChildModule(List.of(Tools.required("node"),
                module.resolve("typescript/dist/test/sample_module.js").toString()), env);
    }

    ChildModule(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("LANG", "C");
        builder.environment().put("LC_ALL", "C");
        builder.environment().putAll(env);
        process = builder.start();
        stdin = process.getOutputStream();
        stdoutReader = pump(process.getInputStream(), null, "stdout");
        stderrReader = pump(process.getErrorStream(), stderr, "stderr");
    }

    private Thread pump(InputStream in, ByteArrayOutputStream sink, String name) {
        Thread thread = new Thread(() -> {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            try {
                for (int b; (b = in.read()) != -1; ) {
                    if (sink != null) {
                        synchronized (sink) {
                            sink.write(b);
                        }
                    } else if (b == '\n') {
                        lines.add(line.toByteArray());
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "child-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    void sendBytes(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** The next stdout line, decoded strictly as UTF-8 and parsed; fails after 30 s. */
    JsonNode next() throws Exception {
        byte[] line = lines.poll(30, TimeUnit.SECONDS);
        assertThat(line).as("an answer within 30 s; stderr: %s", stderr()).isNotNull();
        String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(line)).toString();
        return JSON.readTree(text);
    }

    /** Whether a stdout line is waiting. */
    boolean hasMore() {
        return !lines.isEmpty();
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    int awaitExit() throws Exception {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the module exits; stderr: %s", stderr()).isTrue();
        stdoutReader.join(10_000);
        stderrReader.join(10_000);
        return process.exitValue();
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    static String initialize(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"0\"}}}";
    }

    static String call(Object id, String tool, String arguments) {
        String idJson = id instanceof String ? "\"" + id + "\"" : String.valueOf(id);
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    @Override
    public void close() throws Exception {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.onExit().get(30, TimeUnit.SECONDS);
    }
}
