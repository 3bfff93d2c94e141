package org.metaruntime.module;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.Tools;

/** The README's Java and Python examples, as written, serve a real call. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadmeSnippetsTest {

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"word_count\",\"arguments\":{\"text\":\"one two three\"}}}\n";

    @TempDir
    Path work;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private static String block(String language) throws Exception {
        Path readme = Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("README.md");
        Matcher m = Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(readme, StandardCharsets.UTF_8));
        assertThat(m.find()).as("a ```%s block in meta-module/README.md", language).isTrue();
        return m.group(1);
    }

    @Test
    void theJavaExampleCompilesAndAnswers() throws Exception {
        Path source = Files.writeString(work.resolve("Example.java"), "import java.util.Map;\n"
                + "import org.metaruntime.module.ModuleServer;\n"
                + "public class Example {\n    public static void main(String[] args) {\n" + block("java") + "    }\n}\n");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter log = new StringWriter();
        boolean ok = javac.getTask(log, null, null, List.of("--release", "17", "-Xlint:all", "-Werror", "-classpath",
                System.getProperty("java.class.path"), "-d", work.toString()), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(source.toFile())).call();
        assertThat(ok).as("compiles without warnings: %s", log).isTrue();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertThat(run(List.of(java, "-cp", work + File.pathSeparator + System.getProperty("java.class.path"), "Example")))
                .contains("\"structuredContent\":{\"words\":3}");
    }

    @Test
    void thePythonExampleAnswers() throws Exception {
        Path python = Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("python");
        Path source = Files.writeString(work.resolve("example.py"), "import sys\nsys.path.insert(0, "
                + "'" + python + "')\nfrom meta_module import ModuleServer\n" + block("python"));
        assertThat(run(List.of(Tools.required("python3"), source.toString()))).contains("\"structuredContent\":{\"words\":3}");
    }

    private String run(List<String> command) throws Exception {
        Path in = Files.writeString(work.resolve("in.jsonl"), CALL);
        Path out = work.resolve("out.jsonl");
        Process p = new ProcessBuilder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s exits at end of input", command).isTrue();
            assertThat(p.exitValue()).isZero();
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
            p.onExit().get(10, TimeUnit.SECONDS);
        }
    }
}
