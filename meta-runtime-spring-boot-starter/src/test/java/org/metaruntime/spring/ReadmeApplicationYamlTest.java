package org.metaruntime.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.testing.ProcessLeaks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/** The README's {@code application.yml} runs as written (from the repository root) in a real application context. */
@Timeout(60)
class ReadmeApplicationYamlTest {

    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("meta-core")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }

    /** The one ```yaml block of the README's "Spring Boot" section. */
    static String readmeYaml() throws IOException {
        String readme = Files.readString(repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("\n## Spring Boot\n");
        assertThat(section).as("README has a Spring Boot section").isNotNegative();
        Matcher block = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(block.find(section)).as("a yaml block in it").isTrue();
        return block.group(1);
    }

    @Test
    void theReadmesApplicationYamlRuns() throws IOException {
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("README.md",
                new ByteArrayResource(readmeYaml().getBytes(StandardCharsets.UTF_8)));
        long[] pid = new long[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetaRuntimeAutoConfiguration.class))
                .withInitializer(context -> yaml.forEach(context.getEnvironment().getPropertySources()::addFirst))
                .withPropertyValues("meta.runtime.modules.text-tools.workdir=" + repositoryRoot())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Health health = context.getBean(MetaRuntimeHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    @SuppressWarnings("unchecked")
                    Map<String, Map<String, Object>> modules = (Map<String, Map<String, Object>>) health.getDetails()
                            .get("modules");
                    assertThat(modules.get("text-tools")).containsEntry("state", "Healthy").containsEntry("required", true);
                    pid[0] = ((Number) modules.get("text-tools").get("pid")).longValue();
                    ToolCallback wordCount = List.of(context.getBean(MetaRuntimeToolCallbackProvider.class)
                            .getToolCallbacks()).stream()
                            .filter(c -> c.getToolDefinition().name().equals("text-tools__word_count"))
                            .findFirst().orElseThrow();
                    assertThat(new ObjectMapper().readTree(wordCount.call("{\"text\":\"hello spring world\"}"))
                            .get("words").asInt()).isEqualTo(3);
                });
        ProcessLeaks.assertAllGone(List.of(pid[0]));
    }
}
