package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example compiles against the library as it is and runs as a real program. */
class ReadmeEmbeddingTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CLASS_NAME = Pattern.compile("public class (\\w+)");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theEmbeddingExampleCompilesAndRuns(@TempDir Path work) throws Exception {
        Fixtures.requireOnPath("python3");
        String source = embeddingExample();
        Matcher className = CLASS_NAME.matcher(source);
        assertThat(className.find()).as("a public class in the README example").isTrue();
        Path classes = Files.createDirectories(work.resolve("classes"));
        compile(Files.writeString(work.resolve(className.group(1) + ".java"), source), classes);

        Path pidFile = work.resolve("text-tools.pids");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Fixtures.Run run = Fixtures.runToEnd(
                List.of(java, "-cp", classes + File.pathSeparator + System.getProperty("java.class.path"),
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", className.group(1)),
                Fixtures.repositoryRoot(), "", Map.of("TEXT_TOOLS_PID_FILE", pidFile.toString()), 90);

        assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.stderr()).isZero();
        assertThat(run.stdout()).containsExactly(
                "word_count -> {\"words\":3,\"lines\":1,\"characters\":20}",
                "no tool 'translate'; available: [word_count, reverse, crash]");
        List<String> pids = Files.readAllLines(pidFile);
        assertThat(pids).as("text-tools processes started by the example").isNotEmpty();
        for (String pid : pids) {
            assertThat(ProcessHandle.of(Long.parseLong(pid.trim())).map(ProcessHandle::isAlive).orElse(false))
                    .as("text-tools pid %s alive after the example closed its runtime", pid).isFalse();
        }
        Fixtures.assertNoChildProcesses();
    }

    /** The one ```java block of the README's "Embedding" section. */
    private static String embeddingExample() throws Exception {
        String readme = Files.readString(Fixtures.repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("\n## Embedding\n");
        assertThat(section).as("README has an Embedding section").isNotNegative();
        int next = readme.indexOf("\n## ", section + 1);
        String body = readme.substring(section, next < 0 ? readme.length() : next);
        Matcher block = JAVA_BLOCK.matcher(body);
        assertThat(block.find()).as("a ```java block in the Embedding section").isTrue();
        String source = block.group(1);
        assertThat(block.find()).as("only one ```java block in the Embedding section").isFalse();
        return source;
    }

    private static void compile(Path source, Path classes) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertThat(compiler).as("a JDK compiler").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = new ArrayList<>(List.of("--release", "17", "-Xlint:all", "-Werror",
                    "-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
            StringWriter log = new StringWriter();
            boolean ok = compiler.getTask(log, files, diagnostics, options, null,
                    files.getJavaFileObjects(source.toFile())).call();
            StringBuilder problems = new StringBuilder(log.toString());
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                problems.append(d.getKind()).append(" line ").append(d.getLineNumber()).append(": ")
                        .append(d.getMessage(null)).append('\n');
            }
            assertThat(ok).as("the README example compiles without warnings:%n%s", problems).isTrue();
        }
    }
}
