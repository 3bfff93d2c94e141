package org.metaruntime.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.spring.MetaRuntimeHealthIndicator;
import org.metaruntime.testing.ProcessLeaks;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The example application starts with its application.yml, calls its tools, and leaves no process when closed. */
@Timeout(60)
class SpringExampleApplicationTest {

    @Test
    @SuppressWarnings("unchecked")
    void theExampleRunsAndLeavesNoProcess() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<Long> pids;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (ConfigurableApplicationContext context = SpringApplication.run(SpringExampleApplication.class)) {
            Map<String, Map<String, Object>> modules = (Map<String, Map<String, Object>>) context
                    .getBean(MetaRuntimeHealthIndicator.class).health().getDetails().get("modules");
            assertThat(modules).containsOnlyKeys("text-tools", "host-info", "notes");
            assertThat(modules.get("text-tools")).containsEntry("state", "Healthy");
            pids = modules.values().stream().filter(m -> m.containsKey("pid"))
                    .map(m -> ((Number) m.get("pid")).longValue()).toList();
            assertThat(pids).hasSize(2);
        } finally {
            System.setOut(out);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        out.print(text);
        assertThat(text).contains("health: UP").contains("text-tools__word_count -> {\"words\":3")
                .contains("notes__reverse -> desserts").doesNotContain("text-tools__crash");
        ProcessLeaks.assertAllGone(pids);
    }
}
