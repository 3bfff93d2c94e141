package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every example of docs/guide.md marked {@code <!-- compiled -->} compiles against the library as it is. */
@Timeout(120)
class GuideExamplesTest {

    private static final Pattern MARKED = Pattern.compile("<!-- compiled -->\\n```java\\n(.*?)```", Pattern.DOTALL);
    private static final String IMPORTS = String.join("\n",
            "import com.fasterxml.jackson.databind.JsonNode;",
            "import io.modelcontextprotocol.spec.McpSchema;",
            "import java.time.Duration;",
            "import java.util.*;",
            "import org.metaruntime.core.*;",
            "import org.metaruntime.events.*;",
            "import org.metaruntime.mcp.*;",
            "import org.metaruntime.supervisor.*;");

    static List<String> examples() throws IOException {
        Path guide = Path.of("..", "docs", "guide.md");
        Matcher matcher = MARKED.matcher(Files.readString(guide));
        List<String> examples = new ArrayList<>();
        while (matcher.find()) {
            examples.add(matcher.group(1));
        }
        return examples;
    }

    @Test
    void everyMarkedExampleOfTheGuideCompiles(@TempDir Path out) throws IOException {
        List<String> examples = examples();
        assertThat(examples).as("marked examples in docs/guide.md").hasSizeGreaterThanOrEqualTo(6);
        StringBuilder source = new StringBuilder(IMPORTS).append("\n\npublic class GuideExamples {\n");
        for (int i = 0; i < examples.size(); i++) {
            source.append("    static void example").append(i)
                    .append("(UnifiedRuntime runtime, JsonNode params) throws Exception {\n")
                    .append(examples.get(i)).append("    }\n\n");
        }
        source.append("}\n");
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///GuideExamples.java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        boolean compiled = compiler.getTask(null, null, diagnostics, List.of("-classpath",
                System.getProperty("java.class.path"), "-d", out.toString()), null, List.of(file)).call();
        assertThat(compiled).as("the guide's examples compile:%n%s%n%s", diagnostics.getDiagnostics(), source).isTrue();
    }
}
