package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.spi.Principal;

/** What the console shows of a gateway over fake pods: only what each principal's profiles allow. */
class ServedViewTest {

    private static final Principal ALICE = new Principal("alice", "tokens", List.of("reader"), Map.of());
    private static final Principal ADMIN = new Principal("root", "tokens", List.of("ops"), Map.of());
    private static final PolicyDocument POLICY = new PolicyDocument(Map.of(
            "reader", new PolicyProfile("reader", List.of("alpha__get_*"), Set.of(), List.of("alpha__get_secret"), false, null, null),
            "ops", new PolicyProfile("ops", List.of("*"), Set.of(), List.of(), true, null, null)),
            Optional.empty(), List.of());

    private PipelineHarness harness;

    @AfterEach
    void close() {
        if (harness != null) {
            harness.close();
        }
    }

    private ServedView start(PolicyDocument policy) {
        harness = new PipelineHarness(FakePods.catalog(
                FakePods.pod("alpha", Set.of(), List.of(FakePods.tool("get_item", null), FakePods.tool("get_secret", null))),
                FakePods.pod("beta", Set.of(), List.of(FakePods.tool("write", null)))), policy, null);
        return harness.server.view();
    }

    @Test
    void aPrincipalSeesOnlyTheToolsAndPodsItsProfilesAllow() {
        ServedView view = start(POLICY);

        assertThat(view.tools(ALICE)).extracting(ServedView.ToolView::outward).containsExactly("alpha__get_item");
        assertThat(view.pods(ALICE)).extracting(ServedView.PodView::name).containsExactly("alpha");
        assertThat(view.seesCall(ALICE, "alpha__get_secret", "alpha")).isFalse();
        assertThat(view.seesCall(ALICE, "beta__write", "beta")).isFalse();
        assertThat(view.seesCall(ALICE, "alpha__get_item", "alpha")).isTrue();
        assertThat(view.admin(ALICE)).isFalse();

        assertThat(view.tools(ADMIN)).extracting(ServedView.ToolView::outward)
                .containsExactly("alpha__get_item", "alpha__get_secret", "beta__write");
        assertThat(view.pods(ADMIN)).extracting(ServedView.PodView::name).containsExactly("alpha", "beta");
        assertThat(view.admin(ADMIN)).isTrue();
    }

    @Test
    void aToolListsTheProfilesThatMayCallItAndItsHashes() {
        ServedView view = start(POLICY);

        ServedView.ToolView item = view.tools(ADMIN).get(0);
        assertThat(item.profiles()).containsExactly("ops", "reader");
        assertThat(item.description()).isEqualTo("tool get_item");
        assertThat(item.schemaHash()).as("the declared schema hash").isEmpty();
        assertThat(item.definitionHash()).isEqualTo(harness.server.definitionHash("alpha", "get_item")).isNotNull();
        assertThat(item.drift()).isNull();
        assertThat(view.tools(ADMIN).get(1).profiles()).containsExactly("ops");
    }

    @Test
    void withoutAPolicyEveryoneSeesEverythingAsProfileAll() {
        ServedView view = start(PolicyDocument.ALLOW_ALL);

        assertThat(view.tools(ALICE)).hasSize(3).allSatisfy(tool -> assertThat(tool.profiles()).containsExactly("all"));
        assertThat(view.pods(ALICE)).extracting(ServedView.PodView::state).containsOnly("idle");
    }

    @Test
    void aGatewayStateNameIsShownInTheConsoleWords() {
        assertThat(ServedView.consoleState("NotStarted")).isEqualTo("idle");
        assertThat(ServedView.consoleState("Healthy")).isEqualTo("healthy");
        assertThat(ServedView.consoleState("Restarting")).isEqualTo("restarting");
    }
}
