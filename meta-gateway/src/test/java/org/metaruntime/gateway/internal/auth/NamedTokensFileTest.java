package org.metaruntime.gateway.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.ManifestProblem;
import org.metaruntime.gateway.NamedToken;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Principal;

/** The named tokens file: its entries, and every problem as {@code file:line: message} without a token's value. */
class NamedTokensFileTest {

    private static final String CI_TOKEN = "ci-bot-token-7f2b9d4e1a6c";
    private static final String ALICE_TOKEN = "alice-secret-token-0123456789";

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("tokens.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private List<String> problems(String yaml, Map<String, String> env) throws IOException {
        Path file = write(yaml);
        try {
            NamedTokensFile.read(file, env, profile -> profile.equals("ci") || profile.equals("support"));
        } catch (ManifestException e) {
            return e.problems().stream().map(ManifestProblem::toString).map(line -> line.replace(file + ":", "")).toList();
        }
        throw new AssertionError("no problem found in\n" + yaml);
    }

    @Test
    void readsEntriesBySha256AndByTokenFromTheEnvironment() throws IOException {
        Path file = write("""
                - name: ci-bot
                  sha256: "%s"   # of the ci token
                  profiles: [ci]
                - name: alice
                  token: "${ALICE_GATEWAY_TOKEN}"
                  profiles: [support, all]
                - name: svc.reports@example:1
                  token: plain-token-0123456789
                """.formatted(Digests.sha256Hex(CI_TOKEN)));
        List<NamedToken> tokens = NamedTokensFile.read(file, Map.of("ALICE_GATEWAY_TOKEN", ALICE_TOKEN),
                profile -> profile.equals("ci") || profile.equals("support"));
        assertThat(tokens).extracting(NamedToken::name).containsExactly("ci-bot", "alice", "svc.reports@example:1");
        assertThat(tokens.get(1).sha256Hex()).isEqualTo(Digests.sha256Hex(ALICE_TOKEN));
        assertThat(tokens.get(1).profiles()).containsExactly("support", "all");
        assertThat(tokens.get(2).profiles()).isEmpty();
        assertThat(NamedTokensFile.readEntries(file, Map.of("ALICE_GATEWAY_TOKEN", ALICE_TOKEN), profile -> true).variables())
                .as("the variables holding tokens, which no pod inherits").containsExactly("ALICE_GATEWAY_TOKEN");

        NamedTokens authenticator = new NamedTokens(tokens);
        assertThat(authenticator.authenticate(bearer(CI_TOKEN))).isEqualTo(new AuthResult.Authenticated(
                new Principal("ci-bot", "tokens", List.of("ci"), Map.of())));
        assertThat(authenticator.authenticate(bearer(ALICE_TOKEN))).isInstanceOf(AuthResult.Authenticated.class);
        assertThat(authenticator.authenticate(bearer(ALICE_TOKEN + "x"))).isInstanceOf(AuthResult.Abstain.class);
        assertThat(authenticator.authenticate(bearer(null))).isInstanceOf(AuthResult.Abstain.class);
    }

    @Test
    void everyProblemHasItsLine() throws IOException {
        assertThat(problems("name: x\n", Map.of())).containsExactly(
                "1: a tokens file is a YAML list of entries with name, token or sha256, and profiles");
        assertThat(problems("""
                - name: a
                  token: short
                  colour: red
                - sha256: "%s"
                - name: a
                  token: "${UNSET_TOKEN_VARIABLE}"
                - name: b
                  sha256: ABCDEF
                - name: c
                  token: long-enough-token-123
                  sha256: "%s"
                - name: d
                - name: "bad name"
                  token: long-enough-token-456
                - name: e
                  token: long-enough-token-789
                  profiles: [ci, nope]
                - name: f
                  token: long-enough-token-789
                - just text
                """.formatted(Digests.sha256Hex(CI_TOKEN), Digests.sha256Hex(CI_TOKEN)), Map.of())).containsExactly(
                "2: a token is at least 16 visible ASCII characters",
                "3: unknown key \"colour\" in a token entry (name, token, sha256, profiles)",
                "4: a token entry needs a name",
                "5: duplicate name \"a\" (first at line 1)",
                "6: ${UNSET_TOKEN_VARIABLE} is not set",
                "8: sha256 must be 64 lowercase hex digits",
                "9: a token entry has exactly one of token and sha256",
                "12: a token entry has exactly one of token and sha256",
                "13: name must be 1 to 64 of letters, digits and _ . @ : -",
                "17: profile \"nope\" is not defined by the policy",
                "18: the same token as entry \"e\"",
                "20: an entry is a mapping with name, token or sha256, and profiles");
    }

    @Test
    void aTokenNeverAppearsInAProblem() throws IOException {
        List<String> found = problems("""
                - name: a
                  token: twin-token-abcdef-0123
                - name: b
                  token: "${TWIN}"
                """, Map.of("TWIN", "twin-token-abcdef-0123"));
        assertThat(found).containsExactly("3: the same token as entry \"a\"");
        assertThat(String.join("\n", found)).doesNotContain("twin-token");
    }

    @Test
    void syntaxErrorsAndMissingFilesAreProblemsToo() throws IOException {
        assertThat(problems("- name: [unclosed\n", Map.of())).singleElement().asString().contains(": not valid YAML");
        assertThatThrownBy(() -> NamedTokensFile.read(dir.resolve("missing.yaml"), Map.of(), p -> true))
                .isInstanceOf(ManifestException.class).hasMessageContaining("missing.yaml:1: the tokens file cannot be read");
    }

    @Test
    void namedTokensRefuseTwinNamesAndTokens() {
        assertThatThrownBy(() -> new NamedTokens(List.of(NamedToken.of("a", CI_TOKEN, List.of()),
                NamedToken.of("a", ALICE_TOKEN, List.of())))).hasMessage("two named tokens are named a");
        assertThatThrownBy(() -> new NamedTokens(List.of(NamedToken.of("a", CI_TOKEN, List.of()),
                NamedToken.of("b", CI_TOKEN, List.of())))).hasMessage("named tokens a and b have the same token");
        assertThatThrownBy(() -> NamedToken.of("a", "short", List.of())).hasMessageContaining("at least 16");
        assertThat(NamedToken.of("a", CI_TOKEN, List.of()).toString()).doesNotContain(CI_TOKEN)
                .doesNotContain(Digests.sha256Hex(CI_TOKEN));
    }

    static AuthRequest bearer(String token) {
        return new AuthRequest("POST", "/mcp", token == null ? Map.of() : Map.of("authorization", List.of("Bearer " + token)),
                new InetSocketAddress("127.0.0.1", 40000));
    }
}
