package org.metaruntime.gateway.internal.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class ExpectationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LIVE = "sha256:" + "1".repeat(64);
    private static final String OTHER = "sha256:" + "2".repeat(64);

    @Test
    void anExpectedDefinitionHashMustEqualTheTargetsDefinitionHash() throws Exception {
        Expectation expect = Expectation.parse(JSON.readTree("{\"definition_hash\":\"" + LIVE + "\"}"));
        assertThat(expect.isEmpty()).isFalse();
        assertThat(expect.check(null, null, "sha256:s", LIVE)).isEmpty();
        ObjectNode mismatch = expect.check(null, null, "sha256:s", OTHER).orElseThrow();
        assertThat(mismatch.toString()).isEqualTo("{\"mismatch\":[\"definition_hash\"],\"expected\":{\"definition_hash\":\""
                + LIVE + "\"},\"found\":{\"definition_hash\":\"" + OTHER + "\"}}");
        assertThat(expect.check(null, null, "sha256:s", null)).isPresent();
    }

    @Test
    void aDefinitionHashThatIsNotAStringIsRefused() {
        assertThatThrownBy(() -> Expectation.parse(JSON.readTree("{\"definition_hash\":1}")))
                .hasMessage("expect.definition_hash must be a string");
        assertThatThrownBy(() -> Expectation.parse(JSON.readTree("{\"definition\":\"x\"}")))
                .hasMessageContaining("definition_hash");
    }
}
