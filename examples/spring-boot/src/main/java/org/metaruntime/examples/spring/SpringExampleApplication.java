package org.metaruntime.examples.spring;

import java.util.Arrays;
import org.metaruntime.spring.MetaRuntimeHealthIndicator;
import org.metaruntime.spring.MetaRuntimeToolCallbackProvider;
import org.metaruntime.spring.MetaToolFilter;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application whose modules are declared in {@code application.yml}: it prints the modules' health
 * and the tools Spring AI would get, calls two tools through their callbacks, and exits. In an application with a
 * chat model, the same provider goes to {@code ChatClient.builder(chatModel).defaultToolCallbacks(tools)}.
 */
@SpringBootApplication
public class SpringExampleApplication {

    public static void main(String[] args) {
        SpringApplication.exit(SpringApplication.run(SpringExampleApplication.class, args));
    }

    /** Hides the example module's tool that crashes on purpose. */
    @Bean
    MetaToolFilter noCrashTool() {
        return (moduleId, tool) -> !tool.name().equals("crash");
    }

    @Bean
    ApplicationRunner tour(MetaRuntimeHealthIndicator health, MetaRuntimeToolCallbackProvider tools) {
        return args -> {
            System.out.println("health: " + health.health().getStatus() + " " + health.health().getDetails());
            ToolCallback[] callbacks = tools.getToolCallbacks();
            System.out.println("tools: " + Arrays.stream(callbacks).map(c -> c.getToolDefinition().name()).toList());
            System.out.println("text-tools__word_count -> "
                    + find(callbacks, "text-tools__word_count").call("{\"text\":\"hello from spring\"}"));
            System.out.println("notes__reverse -> " + find(callbacks, "notes__reverse").call("{\"text\":\"stressed\"}"));
        };
    }

    private static ToolCallback find(ToolCallback[] callbacks, String name) {
        return Arrays.stream(callbacks).filter(c -> c.getToolDefinition().name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no tool " + name));
    }
}
