package org.metaruntime.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.chat.ChatModel;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.test.MetaRuntimeTest;
import org.metaruntime.test.ModuleSource;
import org.metaruntime.testing.Python;

/**
 * The README's langchain4j block compiles against the library as it is and runs: with the example text-tools
 * module and a scripted model, the assistant's answer carries the module's word count.
 */
@MetaRuntimeTest
@Timeout(120)
class ReadmeSnippetTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @ModuleSource
    static MetaConfig textTools() {
        return MetaConfig.builder().mcp(ModuleConfig.builder("text-tools")
                .command(Python.executable(), ROOT.resolve("examples/modules/text-tools/text_tools.py").toString())
                .build()).discover("text-tools").build();
    }

    @Test
    void theReadmeBlockCompilesAndCallsAModuleToolThroughAnAiService(UnifiedRuntime runtime, @TempDir Path work)
            throws Exception {
        String source = "import dev.langchain4j.model.chat.ChatModel;\n"
                + "import dev.langchain4j.service.AiServices;\n"
                + "import dev.langchain4j.service.tool.ToolProvider;\n"
                + "import org.metaruntime.core.UnifiedRuntime;\n"
                + "import org.metaruntime.langchain4j.MetaRuntimeToolProvider;\n"
                + "public class ReadmeLangchain4j {\n"
                + "    public interface Assistant { String chat(String message); }\n"
                + "    public static String run(UnifiedRuntime runtime, ChatModel model) {\n"
                + snippet(ROOT) + "        return answer;\n    }\n}\n";
        Path classes = Files.createDirectories(work.resolve("classes"));
        compile(Files.writeString(work.resolve("ReadmeLangchain4j.java"), source), classes);

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            MetaRuntimeToolProviderTest.ScriptedModel model = new MetaRuntimeToolProviderTest.ScriptedModel(
                    "text-tools__word_count", "{\"text\":\"hello embedded world\"}");
            Method run = loader.loadClass("ReadmeLangchain4j").getMethod("run", UnifiedRuntime.class,
                    ChatModel.class);
            assertThat(run.invoke(null, runtime, model))
                    .isEqualTo("the tool said: {\"words\":3,\"lines\":1,\"characters\":20}");
        }
    }

    /** The one ```java block of the README's "langchain4j" section. */
    private static String snippet(Path root) throws Exception {
        String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("\n## langchain4j\n");
        assertThat(section).as("README has a langchain4j section").isNotNegative();
        int next = readme.indexOf("\n## ", section + 1);
        Matcher block = JAVA_BLOCK.matcher(readme.substring(section, next < 0 ? readme.length() : next));
        assertThat(block.find()).as("a ```java block in the langchain4j section").isTrue();
        String code = block.group(1);
        assertThat(block.find()).as("only one ```java block in the langchain4j section").isFalse();
        return code;
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
            assertThat(ok).as("the README block compiles without warnings:%n%s", problems).isTrue();
        }
    }

}
