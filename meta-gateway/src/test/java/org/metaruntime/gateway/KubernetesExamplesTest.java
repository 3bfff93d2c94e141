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
 * gateway runs there as the docs say (three replicas on HTTP on all addresses with a token, sharing a PostgreSQL
 * StatefulSet, the cluster key and the database password from Secrets, ready on /healthz, no session affinity
 * anywhere), and the manifest of the remote pod validates.
 */
class KubernetesExamplesTest {

    private static final Path FOLDER = Repo.ROOT.resolve("examples/kubernetes");
    private static final Map<String, String> API_VERSIONS = Map.of("Deployment", "apps/v1", "StatefulSet", "apps/v1", "Service", "v1",
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

    private static List<JsonNode> workloads() {
        return DOCS.stream().filter(d -> List.of("Deployment", "StatefulSet").contains(d.path("kind").asText())).toList();
    }

    @Test
    void deploymentsSelectTheirOwnPodsAndServicesSelectADeploymentOnAPortItHas() {
        for (JsonNode deployment : workloads()) {
            JsonNode labels = deployment.at("/spec/template/metadata/labels");
            deployment.at("/spec/selector/matchLabels").fields().forEachRemaining(e ->
                    assertThat(labels.path(e.getKey()).asText()).as("template label %s", e.getKey()).isEqualTo(e.getValue().asText()));
            JsonNode containers = deployment.at("/spec/template/spec/containers");
            assertThat(containers.size()).isPositive();
            containers.forEach(c -> assertThat(c.path("image").asText()).as("image").isNotBlank());
        }
        for (JsonNode service : ofKind("Service")) {
            JsonNode selector = service.at("/spec/selector");
            JsonNode target = workloads().stream().filter(d -> {
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
    void theGatewayServesHttpWithATokenAndIsReadyOnHealthz() {
        JsonNode container = named("Deployment", "meta-gateway").at("/spec/template/spec/containers/0");
        assertThat(String.join(" ", args(container))).contains("--transport http").contains("--host 0.0.0.0").contains("--token-file ");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(container.at("/livenessProbe/httpGet/path").asText())
                .as("liveness must not follow the database: /healthz is 503 while it cannot be reached").isEmpty();
        assertThat(container.at("/livenessProbe/tcpSocket/port").asText()).isEqualTo("http");
        assertThat(named("Ingress", "meta-gateway").at("/spec/rules/0/http/paths/0/backend/service/name").asText())
                .isEqualTo("meta-gateway");
    }

    @Test
    void threeReplicasShareThePostgresStatefulSetWithTheClusterKeyAndPasswordFromSecrets() {
        JsonNode deployment = named("Deployment", "meta-gateway");
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
        JsonNode pod = deployment.at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        List<String> args = args(container);

        String state = args.get(args.indexOf("--state") + 1);
        JsonNode db = named("StatefulSet", "meta-gateway-db");
        JsonNode dbService = named("Service", db.at("/spec/serviceName").asText());
        int dbPort = dbService.at("/spec/ports/0/port").asInt();
        String database = env(db.at("/spec/template/spec/containers/0"), "POSTGRES_DB").path("value").asText();
        String user = env(db.at("/spec/template/spec/containers/0"), "POSTGRES_USER").path("value").asText();
        assertThat(state).isEqualTo("jdbc:postgresql://" + dbService.at("/metadata/name").asText() + ":" + dbPort + "/"
                + database + "?user=" + user);
        JsonNode password = env(container, "PGPASSWORD").at("/valueFrom/secretKeyRef");
        assertThat(password.path("name").asText()).isEqualTo("meta-gateway-db");
        assertThat(env(db.at("/spec/template/spec/containers/0"), "POSTGRES_PASSWORD").at("/valueFrom/secretKeyRef"))
                .isEqualTo(password);

        String keyFile = args.get(args.indexOf("--cluster-key-file") + 1);
        assertThat(secretMountedAt(pod, container, keyFile)).isEqualTo("meta-gateway-cluster");
        String tokenFile = args.get(args.indexOf("--token-file") + 1);
        assertThat(secretMountedAt(pod, container, tokenFile)).isEqualTo("meta-gateway-token");

        assertThat(args.get(args.indexOf("--advertise-url") + 1)).isEqualTo("http://$(POD_IP):3000");
        assertThat(env(container, "POD_IP").at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("status.podIP");
        assertThat(args.get(args.indexOf("--port") + 1)).isEqualTo("3000");
    }

    @Test
    void noServiceOrIngressPinsASessionToAReplica() {
        for (JsonNode service : ofKind("Service")) {
            assertThat(service.at("/spec/sessionAffinity").asText("None")).as(service.at("/metadata/name").asText()).isIn("", "None");
        }
        for (JsonNode ingress : ofKind("Ingress")) {
            ingress.at("/metadata/annotations").fields().forEachRemaining(a -> {
                assertThat(a.getKey()).doesNotContain("upstream-hash-by").doesNotContain("affinity").doesNotContain("session-cookie");
                assertThat(a.getValue().asText()).doesNotContainIgnoringCase("mcp_session_id");
            });
        }
    }

    private static List<String> args(JsonNode container) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        return args;
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no env " + name + " in " + container.path("name").asText());
    }

    /** The name of the Secret whose volume {@code container} mounts on the folder of {@code file}. */
    private static String secretMountedAt(JsonNode pod, JsonNode container, String file) {
        String folder = file.substring(0, file.lastIndexOf('/'));
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(folder)) {
                for (JsonNode volume : pod.path("volumes")) {
                    if (volume.path("name").asText().equals(mount.path("name").asText())) {
                        return volume.at("/secret/secretName").asText();
                    }
                }
            }
        }
        throw new AssertionError("nothing mounted on " + folder);
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
