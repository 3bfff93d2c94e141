package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.cli.GatewayCommandAccess;

/** Reading a policy file: the profiles it defines, and every problem at its file:line. */
class GatewayPolicyTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private static final String VALID = """
            apiVersion: mcp-meta/v1
            kind: GatewayPolicy
            defaultProfile: readonly
            profiles:
              readonly:
                tools: ["*__get_*", "*__list_*", "meta__status"]
                tags: [docs]
                excludeTools: ["secrets__*"]
                rateLimit: { rate: 100/min, burst: 20 }
                toolRateLimit: { rate: 10/s, burst: 5 }
              github:
                tools: ["github__*"]
              ops:
                tools: ["*"]
                admin: true
            principals:
              - { claim: groups, contains: admins, profiles: [ops] }
              - { claim: scope, contains: "tools:github", profiles: [github] }
              - { claim: sub, equals: svc-reporting, profiles: [readonly] }
            """;

    @Test
    void readsProfilesInFileOrderAndTheDefault() throws IOException {
        GatewayPolicy policy = GatewayPolicy.read(write("policy.yaml", VALID));
        assertThat(policy.profiles()).containsExactly("readonly", "github", "ops");
        assertThat(policy.defaultProfile()).contains("readonly");
        assertThat(policy.hasProfile("all")).isTrue();
        assertThat(policy.hasProfile("nope")).isFalse();
        assertThat(GatewayPolicy.allowAll().profiles()).isEmpty();
    }

    @Test
    void reportsEveryProblemAtItsLine() throws IOException {
        Path file = write("bad.yaml", """
                apiVersion: mcp-meta/v2
                kind: Policy
                defaultProfile: nowhere
                colour: blue
                profiles:
                  all:
                    tools: ["*"]
                  "bad name":
                    tools: []
                  ok:
                    tools: "x"
                    tags: ["no spaces"]
                    admin: "yes"
                    rateLimit: { rate: 10/day }
                    toolRateLimit: { rate: 5/s, burst: 0 }
                    extra: 1
                principals:
                  - { claim: groups, profiles: [ok] }
                  - { claim: groups, contains: a, equals: b, profiles: [ghost] }
                """);
        assertThatThrownBy(() -> GatewayPolicy.read(file)).isInstanceOfSatisfying(ManifestException.class, e -> {
            List<String> lines = e.problems().stream().map(ManifestProblem::toString).toList();
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":1: ").contains("apiVersion must be mcp-meta/v1"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":2: ").contains("kind must be GatewayPolicy"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":3: ").contains("defaultProfile \"nowhere\""));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":4: ").contains("unknown key \"colour\""));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":6: ").contains("profile \"all\" is built in"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":8: ").contains("profile name \"bad name\""));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":11: ").contains("profiles.ok.tools must be a list"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":12: ").contains("profiles.ok.tags[0]"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":13: ").contains("must be true or false"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":14: ").contains("must be N/s, N/min or N/h"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":15: ").contains("burst must be a positive integer"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":16: ").contains("unknown key \"extra\""));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":18: ").contains("exactly one of contains and equals"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":19: ").contains("exactly one of contains and equals"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(file + ":19: ").contains("\"ghost\" is not a profile"));
        });
    }

    @Test
    void notYamlIsAProblemToo() throws IOException {
        Path file = write("broken.yaml", "profiles: [\n");
        assertThatThrownBy(() -> GatewayPolicy.read(file)).isInstanceOf(ManifestException.class)
                .hasMessageContaining(file.toString() + ":");
    }

    @Test
    void validateWithAPolicyCountsItsProfilesAndProfileMustExist() throws IOException {
        Path manifests = Files.createDirectories(dir.resolve("pods"));
        Files.writeString(manifests.resolve("docs.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata:
                  name: docs
                  tags: [docs, public]
                spec:
                  command: ["true"]
                  tools:
                    - name: get_page
                      inputSchema: {type: object}
                """);
        Path policy = write("policy.yaml", VALID);
        String[] ok = run("--manifests", manifests.toString(), "--policy", policy.toString(), "--validate");
        assertThat(ok[0]).as(ok[1] + ok[2]).isEqualTo("0");
        assertThat(ok[1]).endsWith("ok: 1 pod, 1 tool, 3 profiles\n");
        String[] bad = run("--manifests", manifests.toString(), "--policy", write("p.yaml", "kind: x\n").toString(), "--validate");
        assertThat(bad[0]).isEqualTo("1");
        assertThat(bad[1]).contains("p.yaml:1: ");
        String[] unknownProfile = run("--manifests", manifests.toString(), "--policy", policy.toString(), "--profile", "ghost",
                "--validate");
        assertThat(unknownProfile[0]).isEqualTo("2");
        assertThat(unknownProfile[2]).contains("--profile ghost is neither all nor a profile");
        Files.writeString(manifests.resolve("bad.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata:
                  name: bad
                  tags: ["a b"]
                spec:
                  command: ["true"]
                """);
        String[] badTags = run("--manifests", manifests.toString(), "--validate");
        assertThat(badTags[0]).isEqualTo("1");
        assertThat(badTags[1]).contains("bad.yaml:5: metadata.tags[0] must be a tag name");
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GatewayCommandAccess.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }
}
