package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes examples of {@code examples/kubernetes/} have the shape {@code kubectl apply --dry-run=client}
 * needs (apiVersion and kind that go together, names, selectors that match their pods, ports that exist), the
 * gateway runs there as the docs say (HTTP on all addresses with a token, probes on /healthz, session affinity on
 * {@code Mcp-Session-Id}), and the manifest of the remote pod validates.
 */
class KubernetesExamplesTest {

    private static final Path FOLDER = Repo.ROOT.resolve("examples/kubernetes");
    private static final Map<String, String> API_VERSIONS = Map.of("Deployment", "apps/v1", "Service", "v1",
            "Ingress", "networking.k8s.io/v1", "ConfigMap", "v1", "Secret", "v1");
    private static final List<JsonNode> DOCS = new ArrayList<>();

    @BeforeAll
    static void read() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (Stream<Path> files = Files.list(FOLDER)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
                    while (docs.hasNext()) {
                        JsonNode doc = docs.next();
                        if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                            DOCS.add(doc);
                        }
                    }
                }
            }
        }
        assertThat(DOCS).isNotEmpty();
    }

    private static List<JsonNode> ofKind(String kind) {
        return DOCS.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
    }

    private static JsonNode named(String kind, String name) {
        return ofKind(kind).stream().filter(d -> d.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    @Test
    void everyObjectHasAKnownKindItsApiVersionAndAName() {
        for (JsonNode doc : DOCS) {
            String kind = doc.path("kind").asText();
            assertThat(API_VERSIONS).as("kind of %s", doc).containsKey(kind);
            assertThat(doc.path("apiVersion").asText()).as(kind).isEqualTo(API_VERSIONS.get(kind));
            assertThat(doc.at("/metadata/name").asText()).as(kind).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        }
    }

    @Test
    void deploymentsSelectTheirOwnPodsAndServicesSelectADeploymentOnAPortItHas() {
        for (JsonNode deployment : ofKind("Deployment")) {
            JsonNode labels = deployment.at("/spec/template/metadata/labels");
            deployment.at("/spec/selector/matchLabels").fields().forEachRemaining(e ->
                    assertThat(labels.path(e.getKey()).asText()).as("template label %s", e.getKey()).isEqualTo(e.getValue().asText()));
            JsonNode containers = deployment.at("/spec/template/spec/containers");
            assertThat(containers.size()).isPositive();
            containers.forEach(c -> assertThat(c.path("image").asText()).as("image").isNotBlank());
        }
        for (JsonNode service : ofKind("Service")) {
            JsonNode selector = service.at("/spec/selector");
            JsonNode target = ofKind("Deployment").stream().filter(d -> {
                JsonNode labels = d.at("/spec/template/metadata/labels");
                for (Iterator<Map.Entry<String, JsonNode>> it = selector.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                        return false;
                    }
                }
                return true;
            }).findFirst().orElseThrow(() -> new AssertionError("service " + service.at("/metadata/name") + " selects nothing"));
            List<String> portNames = new ArrayList<>();
            target.at("/spec/template/spec/containers").forEach(c -> c.path("ports").forEach(p -> portNames.add(p.path("name").asText())));
            service.at("/spec/ports").forEach(p -> assertThat(portNames).contains(p.path("targetPort").asText()));
        }
    }

    @Test
    void theGatewayServesHttpWithATokenIsProbedOnHealthzAndSessionsStickToAReplica() {
        JsonNode container = named("Deployment", "meta-gateway").at("/spec/template/spec/containers/0");
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        assertThat(String.join(" ", args)).contains("--transport http").contains("--host 0.0.0.0").contains("--token-file ");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        JsonNode ingress = named("Ingress", "meta-gateway");
        assertThat(ingress.at("/metadata/annotations").path("nginx.ingress.kubernetes.io/upstream-hash-by").asText())
                .isEqualTo("$http_mcp_session_id");
        assertThat(ingress.at("/spec/rules/0/http/paths/0/backend/service/name").asText()).isEqualTo("meta-gateway");
        named("Service", "meta-gateway");
    }

    @Test
    void theRemotePodsManifestValidatesAndNamesItsService(@TempDir Path dir) throws IOException {
        JsonNode data = named("ConfigMap", "meta-gateway-remote-pods").path("data");
        for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> file = it.next();
            Files.writeString(dir.resolve(file.getKey()), file.getValue().asText());
            assertThat(file.getValue().asText()).contains("url: http://everything.default.svc.cluster.local:3001/mcp");
        }
        ValidationReport report = MetaGateway.builder().manifests(dir).validate();
        assertThat(report.valid()).as(String.join("\n", report.lines())).isTrue();
        named("Service", "everything");
    }
}
