package org.metaruntime.gateway.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credential options of the command line: {@code --tokens}, {@code --oauth-issuer}, {@code --oauth-audience},
 * {@code --oauth-scopes}, {@code --public-url}, their exit codes (2: bad command line, 1: a tokens file with problems),
 * and their being unused over stdio. Nothing here starts a pod.
 */
class CredentialOptionsTest {

    private static final Path EXAMPLES = Path.of("").toAbsolutePath().getParent().resolve("examples/manifests");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of("--manifests", EXAMPLES.toString()));
        all.addAll(List.of(args));
        return GatewayCommand.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static CommandLine parse(String... args) throws CommandLine.UsageException {
        List<String> all = new ArrayList<>(List.of("--manifests", "m"));
        all.addAll(List.of(args));
        return CommandLine.parse(all.toArray(String[]::new));
    }

    @Test
    void oauthOptionsAreParsed() throws Exception {
        CommandLine line = parse("--oauth-issuer", "https://login.example.com/realms/tools", "--oauth-audience", "meta-gateway",
                "--oauth-scopes", "mcp:tools,mcp:read", "--oauth-scopes", "mcp:write mcp:tools", "--public-url",
                "https://gateway.example.com/mcp", "--tokens", "tokens.yaml");
        assertThat(line.oauth().issuer().toString()).isEqualTo("https://login.example.com/realms/tools");
        assertThat(line.oauth().audience()).isEqualTo("meta-gateway");
        assertThat(line.oauth().requiredScopes()).containsExactly("mcp:tools", "mcp:read", "mcp:write");
        assertThat(line.publicUrl().toString()).isEqualTo("https://gateway.example.com/mcp");
        assertThat(line.tokens()).isEqualTo(Path.of("tokens.yaml"));
        assertThat(parse().oauth()).isNull();
    }

    @Test
    void badOauthOptionsAreUsageErrors() {
        assertThatThrownBy(() -> parse("--oauth-issuer", "https://login.example.com"))
                .hasMessage("--oauth-issuer and --oauth-audience go together");
        assertThatThrownBy(() -> parse("--oauth-audience", "gw")).hasMessage("--oauth-issuer and --oauth-audience go together");
        assertThatThrownBy(() -> parse("--oauth-issuer", "ftp://login.example.com", "--oauth-audience", "gw"))
                .hasMessage("--oauth-issuer is an http or https URL, not ftp://login.example.com");
        assertThatThrownBy(() -> parse("--oauth-issuer", "login.example.com", "--oauth-audience", "gw"))
                .hasMessageContaining("is an http or https URL");
        assertThatThrownBy(() -> parse("--oauth-scopes", "a")).hasMessage("--oauth-scopes needs --oauth-issuer and --oauth-audience");
        assertThatThrownBy(() -> parse("--public-url", "gateway.example.com/mcp")).hasMessageContaining("--public-url is an http");
    }

    @Test
    void exitCodes() throws Exception {
        assertThat(run("--transport", "http", "--oauth-issuer", "https://login.example.com")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("go together").contains("usage: meta-gateway");

        err.reset();
        assertThat(run("--transport", "http", "--host", "0.0.0.0", "--oauth-issuer", "https://login.example.com",
                "--oauth-audience", "gw")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("needs --public-url");

        err.reset();
        assertThat(run("--transport", "http", "--host", "0.0.0.0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("is not a loopback address: give a credential");

        Path tokens = Files.writeString(dir.resolve("tokens.yaml"), "- name: ci\n  token: short\n");
        err.reset();
        assertThat(run("--transport", "http", "--tokens", tokens.toString())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo(tokens + ":2: a token is at least 16 visible ASCII characters");

        Path profiles = Files.writeString(dir.resolve("profiles.yaml"), "- name: ci\n  token: long-enough-token-123\n  profiles: [ops]\n");
        assertThat(run("--validate", "--tokens", profiles.toString())).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(profiles + ":3: profile \"ops\" is not defined by the policy")
                .doesNotContain("long-enough-token-123");
    }

    @Test
    void overStdioTheCredentialOptionsAreUnused() throws Exception {
        assertThat(Serve.credentialsUnused(parse("--tokens", "t.yaml"))).isTrue();
        assertThat(Serve.credentialsUnused(parse("--oauth-issuer", "https://l.example", "--oauth-audience", "a"))).isTrue();
        assertThat(Serve.credentialsUnused(parse("--transport", "http", "--tokens", "t.yaml"))).isFalse();
        assertThat(Serve.credentialsUnused(parse())).isFalse();
    }
}
