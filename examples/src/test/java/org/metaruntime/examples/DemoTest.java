package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

class DemoTest {

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyStepHappensAndNoProcessOutlivesTheDemo(@TempDir Path state) {
        Fixtures.requireOnPath("python3");
        Fixtures.requireOnPath("node");
        ByteArrayOutputStream firstRun = new ByteArrayOutputStream();
        Demo.run(Fixtures.examplesDir(), state, new PrintStream(firstRun, true, StandardCharsets.UTF_8));
        assertThat(firstRun.toString(StandardCharsets.UTF_8))
                .contains("No earlier run wrote to this log")
                .containsPattern("This run \\(\\S+\\) has \\d+ events in ");
        Fixtures.assertNoChildProcesses();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Demo.Result result = Demo.run(Fixtures.examplesDir(), state,
                new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String output = buffer.toString(StandardCharsets.UTF_8);
        // The second run reads the first run's events back from the event log.
        assertThat(output).containsPattern("1 earlier run\\(s\\) logged \\d+ events")
                .containsPattern("\\d+\\s+\\S+\\s+\\S+\\s+demo-host\\s+run_completed");

        // Every module answered.
        assertThat(output)
                .contains("Loaded modules: [host-info, text-tools, java-tools, everything]")
                .contains("-> {\"label\":\"" + Demo.HOST_INFO_LABEL + "\"")
                .contains("text-tools.word_count(", "-> {\"words\":9,\"lines\":2,\"characters\":43}")
                .contains("text-tools.reverse({\"text\":\"meta-runtime\"})", "-> \"emitnur-atem\"")
                .contains("-> \"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\"")
                .contains("java-tools.stats(", "\"count\":8,\"sum\":31.0")
                .contains("-> \"Echo: hello from the JVM\"")
                .contains("-> \"The sum of 19 and 23 is 42.\"")
                .contains("ToolNotFound[moduleId=text-tools, tool=translate, availableTools=[word_count, reverse, crash]]");
        // The crash, the restart, and the restarted module answering.
        assertThat(output)
                .contains("exited with code 3")
                .contains("text-tools is Healthy again")
                .contains("-> \"niaga kcab\"");
        assertThat(textToolsTransitions(result.transitions())).containsSubsequence(
                "null->Starting", "Starting->Healthy", "Healthy->Failed", "Failed->Restarting", "Restarting->Healthy");
        assertThat(output).containsPattern("text-tools\\s+Healthy\\s+Failed\\s+2")
                .containsPattern("text-tools\\s+Failed\\s+Restarting\\s+2")
                .containsPattern("text-tools\\s+Restarting\\s+Healthy\\s+3");
        // The merged log shows module, runtime and agent events.
        assertThat(output).containsPattern("module\\s+host-info\\s+host\\.snapshot")
                .containsPattern("module\\s+java-tools\\s+mcp\\.ready")
                .containsPattern("module\\s+text-tools\\s+supervisor\\.warning")
                .containsPattern("agent\\s+demo-host\\s+run_completed");
        // The shutdown report lists every module and no orphan, and nothing is left running.
        assertThat(result.shutdownReport().terminatedModules())
                .containsExactly("everything", "host-info", "java-tools", "text-tools");
        assertThat(result.shutdownReport().orphanProcesses()).isZero();
        assertThat(output).containsPattern("everything, host-info, java-tools, text-tools\\s+0\\n")
                .contains("still running: 0.");
        // host-info's call, both text-tools servers, java-tools, everything (a report shows live pids only)
        assertThat(result.pids()).hasSizeGreaterThanOrEqualTo(5);
        for (long pid : result.pids()) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid %d alive", pid).isFalse();
        }
        Fixtures.assertNoChildProcesses();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aMissingNpmInstallIsReportedBeforeAnythingStarts(@TempDir Path emptyHome) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        assertThatThrownBy(() -> Demo.run(emptyHome, new PrintStream(buffer, true, StandardCharsets.UTF_8)))
                .isInstanceOf(Demo.DemoException.class)
                .hasMessageContaining("server-everything")
                .hasMessageContaining("npm ci");
        Fixtures.assertNoChildProcesses();
    }

    @Test
    void theExamplesDirectoryIsFoundFromTheRepositoryRootOrItself() {
        assertThat(Demo.findHome(Fixtures.repositoryRoot())).isEqualTo(Fixtures.examplesDir());
        assertThat(Demo.findHome(Fixtures.examplesDir())).isEqualTo(Fixtures.examplesDir());
    }

    private static List<String> textToolsTransitions(List<ModuleHealthTransition> transitions) {
        return transitions.stream()
                .filter(t -> t.moduleId().equals(Demo.TEXT_TOOLS))
                .map(t -> name(t.from()) + "->" + name(t.to()))
                .collect(Collectors.toList());
    }

    private static String name(ModuleHealthState state) {
        return state == null ? "null" : state.jsonName();
    }
}
