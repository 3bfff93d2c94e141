package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each validation rule, shown by a broken manifest and the {@code file:line: message} it yields. */
class ManifestValidationTest {

    @TempDir
    Path dir;

    private static final String GOOD = """
            apiVersion: mcp-meta/v1
            kind: ToolPod
            metadata:
              name: tools
              description: "Some tools"
            spec:
              command: ["python3", "main.py"]
              callTimeout: 30s
              tools:
                - name: echo
                  description: "Echoes"
                  contract: { id: "x.tools.echo", version: "1.0.0" }
                  inputSchema:
                    type: object
                    required: [text]
                    properties:
                      text: { type: string }
            """;

    private Path write(String name, String yaml) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        return file;
    }

    private List<String> problems() {
        return MetaGateway.builder().manifests(dir).validate().problems().stream().map(ManifestProblem::toString).toList();
    }

    private void assertSingle(String file, int line, String messagePart) {
        List<String> problems = problems();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith(dir.resolve(file) + ":" + line + ": ").contains(messagePart);
    }

    @Test
    void aGoodManifestIsValidAndCountsItsTools() throws IOException {
        write("tools.yaml", GOOD);
        ValidationReport report = MetaGateway.builder().manifests(dir).validate();
        assertThat(report.problems()).isEmpty();
        assertThat(report.lines()).last().isEqualTo("ok: 1 pod, 1 tool");
        assertThat(report.lines().get(0)).matches("tools__echo sha256:[0-9a-f]{64} sha256:[0-9a-f]{64}");
    }

    @Test
    void unknownKey() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  callTimeout: 30s\n  comand: [x]"));
        assertSingle("a.yaml", 9, "unknown key \"comand\" in spec");
    }

    @Test
    void unknownKeyInATool() throws IOException {
        write("a.yaml", GOOD.replace("      description: \"Echoes\"", "      descripton: \"Echoes\""));
        assertSingle("a.yaml", 11, "unknown key \"descripton\" in spec.tools[0]");
    }

    @Test
    void wrongType() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  callTimeout: 30s\n  preWarm: yes please"));
        assertSingle("a.yaml", 9, "spec.preWarm must be true or false, not a string");
    }

    @Test
    void wrongTypeOfCommand() throws IOException {
        write("a.yaml", GOOD.replace("[\"python3\", \"main.py\"]", "python3 main.py"));
        assertSingle("a.yaml", 7, "spec.command must be a non-empty list of strings");
    }

    @Test
    void badDuration() throws IOException {
        write("a.yaml", GOOD.replace("callTimeout: 30s", "callTimeout: 30 seconds"));
        assertSingle("a.yaml", 8, "spec.callTimeout: \"30 seconds\" is not a duration");
    }

    @Test
    void zeroDurationIsBad() throws IOException {
        write("a.yaml", GOOD.replace("callTimeout: 30s", "callTimeout: 0s"));
        assertSingle("a.yaml", 8, "is not a duration");
    }

    @Test
    void missingCommandAndUrl() throws IOException {
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]\n", ""));
        assertSingle("a.yaml", 6, "spec needs command (a local process) or url");
    }

    @Test
    void bothCommandAndUrl() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  url: https://tools.example/mcp"));
        assertSingle("a.yaml", 8, "spec has both command and url");
    }

    @Test
    void aRemotePodWithHeadersIsValid() throws IOException {
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]", "  url: https://tools.example/mcp\n"
                + "  headers: { Authorization: \"Bearer ${PATH}\" }\n  healthCheck: { interval: 10s }"));
        assertThat(problems()).isEmpty();
    }

    @Test
    void headersOfARemotePodAreChecked() throws IOException {
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]", "  url: https://tools.example/mcp\n"
                + "  headers: { Mcp-Session-Id: x }"));
        assertSingle("a.yaml", 8, "set by the MCP client itself");
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]", "  url: https://tools.example/mcp\n"
                + "  headers: { Authorization: \"Bearer ${META_TEST_SURELY_UNSET_VARIABLE}\" }"));
        assertSingle("a.yaml", 8, "META_TEST_SURELY_UNSET_VARIABLE, not set for the gateway");
    }

    @Test
    void envValuesMayNameEnvironmentVariablesThatMustBeSet() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  env: { SEARCH_PATH: \"${PATH}:/opt/bin\", RETRIES: 3 }"));
        assertThat(problems()).isEmpty();
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  env:\n    MODE: plain\n"
                + "    TOKEN: \"x-${META_TEST_SURELY_UNSET_VARIABLE}-${PATH}-${META_TEST_OTHER_UNSET}\""));
        assertSingle("a.yaml", 10, "spec.env.TOKEN names the environment variable(s) META_TEST_SURELY_UNSET_VARIABLE, "
                + "META_TEST_OTHER_UNSET, not set for the gateway");
    }

    @Test
    void toolFiltersApplyToAPodThatListsItsToolsLive() throws IOException {
        String live = GOOD.substring(0, GOOD.indexOf("  tools:"));
        write("a.yaml", live + "  includeTools: [read_*, \"list_?\"]\n  excludeTools: [read_secret]\n");
        assertThat(problems()).isEmpty();
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  excludeTools: [echo]"));
        assertSingle("a.yaml", 8, "spec.excludeTools filters the tools a pod lists live: a pod that declares spec.tools serves exactly those");
        write("a.yaml", live + "  includeTools: read_*\n");
        assertSingle("a.yaml", 9, "spec.includeTools must be a list of tool names or globs");
        write("a.yaml", live + "  includeTools:\n    - ok\n    - \"\"\n");
        assertSingle("a.yaml", 11, "spec.includeTools[1] must be a non-empty tool name or glob");
    }

    @Test
    void validationChecksThatThePodsProgramCanBeRun() throws IOException {
        write("a.yaml", GOOD.replace("\"python3\"", "\"no-such-program-for-meta-gateway\""));
        assertSingle("a.yaml", 7, "spec.command: \"no-such-program-for-meta-gateway\" is not found on PATH");
        Path script = write("run.sh", "#!/bin/sh\nexec python3 main.py\n");
        write("a.yaml", GOOD.replace("[\"python3\", \"main.py\"]", "[\"./run.sh\"]"));
        assertSingle("a.yaml", 7, "spec.command: \"./run.sh\" is not executable (" + script
                + "): chmod +x it, or run it with its interpreter, like [\"python3\", \"./run.sh\"]");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(problems()).isEmpty();
        write("a.yaml", GOOD.replace("[\"python3\", \"main.py\"]", "[\"bin/missing.sh\"]"));
        assertSingle("a.yaml", 7, "spec.command: \"bin/missing.sh\" does not exist (" + dir.resolve("bin/missing.sh") + ")");
        write("a.yaml", GOOD.replace("[\"python3\", \"main.py\"]", "[\"" + dir + "\"]"));
        assertSingle("a.yaml", 7, "is not a program (" + dir + " is a directory or a device)");
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]",
                "  command:\n    - ./run.sh\n    - --verbose\n  workdir: sub"));
        Files.createDirectories(dir.resolve("sub"));
        assertSingle("a.yaml", 8, "spec.command: \"./run.sh\" does not exist (" + dir.resolve("sub/run.sh") + ")");
    }

    @Test
    void aProgramThatCannotBeRunIsFoundByValidationOnly() throws IOException {
        write("a.yaml", GOOD.replace("\"python3\"", "\"no-such-program-for-meta-gateway\""));
        try (MetaGateway gateway = MetaGateway.builder().manifests(dir).build()) {
            assertThat(gateway.pods()).containsExactly("tools");
        }
    }

    @Test
    void headersWithoutAUrlAndEnvWithAUrlAreProblems() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  headers: { X-A: b }"));
        assertSingle("a.yaml", 8, "spec.headers go to a remote server");
        write("a.yaml", GOOD.replace("  command: [\"python3\", \"main.py\"]", "  url: https://tools.example/mcp\n"
                + "  env: { A: b }"));
        assertSingle("a.yaml", 8, "spec.env applies to a local process");
    }

    @Test
    void workdirThatDoesNotExist() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  workdir: ./pods/missing"));
        assertSingle("a.yaml", 8, "workdir ./pods/missing does not exist");
    }

    @Test
    void workdirRelativeToTheManifestFolderIsFine() throws IOException {
        Files.createDirectories(dir.resolve("pods/here"));
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  workdir: ./pods/here"));
        assertThat(problems()).isEmpty();
    }

    @Test
    void duplicatePodNameAcrossFolders() throws IOException {
        Path other = Files.createDirectories(dir.resolve("other"));
        write("a.yaml", GOOD);
        Files.writeString(other.resolve("b.yaml"), GOOD);
        List<String> problems = MetaGateway.builder().manifests(dir, other).validate().problems().stream()
                .map(ManifestProblem::toString).toList();
        assertThat(problems).containsExactly(other.resolve("b.yaml") + ":4: duplicate pod name \"tools\": already declared at "
                + dir.resolve("a.yaml") + ":4");
    }

    @Test
    void podNameClientsReject() throws IOException {
        write("a.yaml", GOOD.replace("name: tools", "name: my.tools"));
        assertSingle("a.yaml", 4, "pod name \"my.tools\" is not accepted by clients");
    }

    @Test
    void toolNameClientsReject() throws IOException {
        write("a.yaml", GOOD.replace("- name: echo", "- name: echo tool"));
        assertSingle("a.yaml", 10, "tool name \"echo tool\" is not accepted by clients");
    }

    @Test
    void outwardNameTooLong() throws IOException {
        String longName = "t".repeat(60);
        write("a.yaml", GOOD.replace("- name: echo", "- name: " + longName));
        assertSingle("a.yaml", 10, "outward tool name \"tools__" + longName + "\" is not accepted by clients");
    }

    @Test
    void outwardNameCollision() throws IOException {
        write("a.yaml", GOOD.replace("name: tools", "name: a__b").replace("- name: echo", "- name: c"));
        write("b.yaml", GOOD.replace("name: tools", "name: a").replace("- name: echo", "- name: b__c"));
        List<String> problems = problems();
        assertThat(problems).containsExactly(dir.resolve("b.yaml") + ":10: outward tool name \"a__b__c\" of pod a tool b__c"
                + " collides with pod a__b tool c (" + dir.resolve("a.yaml") + ":10)");
    }

    @Test
    void collisionWithTheGatewaysOwnStatusTool() throws IOException {
        write("a.yaml", GOOD.replace("name: tools", "name: meta"));
        assertSingle("a.yaml", 4, "pod name \"meta\" is reserved");
    }

    @Test
    void toolDeclaredTwice() throws IOException {
        write("a.yaml", GOOD + """
                    - name: echo
                      inputSchema: { type: object }
                """);
        assertSingle("a.yaml", 18, "tool \"echo\" is declared twice in pod tools (first at line 10)");
    }

    @Test
    void inputSchemaThatIsNotAnObjectSchema() throws IOException {
        write("a.yaml", GOOD.replace("        type: object\n", "        type: string\n"));
        assertSingle("a.yaml", 14, "inputSchema must have type: object");
    }

    @Test
    void inputSchemaThatIsNotAMapping() throws IOException {
        write("a.yaml", GOOD.replace("      inputSchema:\n        type: object\n        required: [text]\n"
                + "        properties:\n          text: { type: string }\n", "      inputSchema: [text]\n"));
        assertSingle("a.yaml", 13, "inputSchema is not a JSON Schema object");
    }

    @Test
    void inputSchemaWithABadNestedType() throws IOException {
        write("a.yaml", GOOD.replace("text: { type: string }", "text: { type: str }"));
        assertSingle("a.yaml", 17, "inputSchema at properties.text.type: type \"str\" is not a JSON Schema type");
    }

    @Test
    void missingInputSchema() throws IOException {
        write("a.yaml", GOOD.replace("      inputSchema:\n        type: object\n        required: [text]\n"
                + "        properties:\n          text: { type: string }\n", ""));
        assertSingle("a.yaml", 10, "tool echo needs an inputSchema");
    }

    @Test
    void contractVersionThatIsNotSemver() throws IOException {
        write("a.yaml", GOOD.replace("version: \"1.0.0\"", "version: \"1.0\""));
        assertSingle("a.yaml", 12, "contract version \"1.0\" is not a semantic version");
    }

    @Test
    void contractWithoutIdOrWithAnUnknownKey() throws IOException {
        write("a.yaml", GOOD.replace("contract: { id: \"x.tools.echo\", version: \"1.0.0\" }", "contract: { version: \"1.0.0\" }"));
        assertSingle("a.yaml", 12, "contract.id is missing");
        write("a.yaml", GOOD.replace("version: \"1.0.0\"", "version: \"1.0.0\", range: \"^1\""));
        assertSingle("a.yaml", 12, "range");
        write("a.yaml", GOOD.replace("version: \"1.0.0\"", "version: 1"));
        assertSingle("a.yaml", 12, "must be a string");
    }

    @Test
    void wrongApiVersion() throws IOException {
        write("a.yaml", GOOD.replace("mcp-meta/v1", "mcp-meta/v2"));
        assertSingle("a.yaml", 1, "apiVersion must be mcp-meta/v1, not \"mcp-meta/v2\"");
    }

    @Test
    void wrongKind() throws IOException {
        write("a.yaml", GOOD.replace("kind: ToolPod", "kind: Pod"));
        assertSingle("a.yaml", 2, "kind must be ToolPod, not \"Pod\"");
    }

    @Test
    void duplicateKey() throws IOException {
        write("a.yaml", GOOD.replace("  callTimeout: 30s", "  callTimeout: 30s\n  callTimeout: 10s"));
        assertSingle("a.yaml", 9, "duplicate key 'callTimeout'");
    }

    @Test
    void notYamlAtAll() throws IOException {
        write("a.yaml", "apiVersion: mcp-meta/v1\nkind: [ToolPod\n");
        List<String> problems = problems();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith(dir.resolve("a.yaml") + ":").contains("not valid YAML");
    }

    @Test
    void twoDocumentsInOneFile() throws IOException {
        write("a.yml", GOOD + "---\n" + GOOD);
        assertSingle("a.yml", 19, "more than one document");
    }

    @Test
    void everyProblemOfAFileIsReportedInLineOrder() throws IOException {
        write("a.yaml", GOOD.replace("kind: ToolPod", "kind: Pod").replace("callTimeout: 30s", "callTimeout: soon")
                .replace("version: \"1.0.0\"", "version: one"));
        assertThat(problems()).extracting(p -> p.substring(dir.resolve("a.yaml").toString().length()))
                .containsExactly(":2: kind must be ToolPod, not \"Pod\"",
                        ":8: spec.callTimeout: \"soon\" is not a duration (a positive number with ms, s, m or h: 500ms, 30s, 2m)",
                        ":12: contract version \"one\" is not a semantic version (like 1.0.0)");
    }

    @Test
    void aMissingFolderIsAProblem() {
        List<String> problems = MetaGateway.builder().manifests(dir.resolve("nope")).validate().problems().stream()
                .map(ManifestProblem::toString).toList();
        assertThat(problems).containsExactly(dir.resolve("nope") + ":1: manifest folder does not exist or is not a directory");
    }

    @Test
    void theSeparatorShapesOutwardNames() throws IOException {
        write("a.yaml", GOOD);
        ValidationReport report = MetaGateway.builder().manifests(dir)
                .options(GatewayOptions.builder().separator("-").build()).validate();
        assertThat(report.schemaHashes()).containsOnlyKeys("tools-echo");
    }
}
