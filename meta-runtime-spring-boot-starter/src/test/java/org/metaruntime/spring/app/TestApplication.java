package org.metaruntime.spring.app;

import io.micrometer.observation.tck.TestObservationRegistry;
import org.metaruntime.spring.MetaToolFilter;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** The application of the tests: a tool filter, an observation registry the tests read, and a scripted chat model. */
@SpringBootApplication
public class TestApplication {

    /** Hides the fixture's tool that never answers. */
    @Bean
    MetaToolFilter noHangingTool() {
        return (moduleId, tool) -> !tool.name().equals("hang");
    }

    @Bean
    TestObservationRegistry observationRegistry() {
        return TestObservationRegistry.create();
    }

    @Bean
    ScriptedChatModel chatModel() {
        return new ScriptedChatModel();
    }
}
