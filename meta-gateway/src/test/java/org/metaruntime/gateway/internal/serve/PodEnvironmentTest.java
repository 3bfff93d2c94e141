package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaruntime.core.ProcessOptions;

/**
 * Pods inherit the gateway's environment but for its own variables, any variable holding its credentials and the
 * variables remote pods' headers read.
 */
class PodEnvironmentTest {

    private static final Map<String, String> HOST = Map.of("PATH", "/usr/bin", "HOME", "/home/ada",
            "META_GATEWAY_TOKEN", "t0ken-1", "META_GATEWAY_JAVA_OPTS", "-Xmx1g", "MY_TOKEN_COPY", " t0ken-2 ",
            "LANG", "C.UTF-8");

    @Test
    void everythingButTheGatewaysOwnVariablesAndCredentialsIsInherited() {
        ProcessOptions options = PodEnvironment.processOptions(ProcessOptions.defaults(), HOST, List.of("t0ken-2"), Set.of());
        assertThat(options.inheritEnv()).isFalse();
        assertThat(options.passThroughEnv()).containsExactlyInAnyOrder("PATH", "HOME", "LANG");
        assertThat(options.maxLineBytes()).isEqualTo(ProcessOptions.defaults().maxLineBytes());
    }

    @Test
    void withoutATokenOnlyTheGatewaysOwnNamesAreWithheld() {
        ProcessOptions options = PodEnvironment.processOptions(ProcessOptions.defaults(), HOST, List.of(), Set.of());
        assertThat(options.passThroughEnv()).containsExactlyInAnyOrder("PATH", "HOME", "LANG", "MY_TOKEN_COPY");
    }

    @Test
    void theVariablesThatRemotePodsHeadersReadAreWithheld() {
        Map<String, String> host = Map.of("PATH", "/usr/bin", "SEARCH_API_KEY", "k-1", "REGION", "eu");
        ProcessOptions options = PodEnvironment.processOptions(ProcessOptions.defaults(), host, List.of(),
                Set.of("SEARCH_API_KEY", "REGION", "UNSET_ONE"));
        assertThat(options.passThroughEnv()).containsExactly("PATH");
    }

    @Test
    void aHostsPassThroughListIsKeptWithoutTheGatewaysVariables() {
        ProcessOptions hidden = ProcessOptions.builder().inheritEnv(false)
                .passThroughEnv(Set.of("PATH", "META_GATEWAY_TOKEN", "MY_TOKEN_COPY", "UNSET_ONE")).build();
        ProcessOptions options = PodEnvironment.processOptions(hidden, HOST, List.of("t0ken-2"), Set.of());
        assertThat(options.passThroughEnv()).containsExactly("PATH");
    }
}
