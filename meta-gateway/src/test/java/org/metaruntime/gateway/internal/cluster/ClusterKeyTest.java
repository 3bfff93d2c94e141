package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterKeyTest {

    private static final byte[] BODY = "{\"jsonrpc\":\"2.0\"}".getBytes(StandardCharsets.UTF_8);
    private final ClusterKey key = ClusterKey.of("0123456789abcdef-shared".getBytes(StandardCharsets.UTF_8));

    @Test
    void aSignedRequestVerifiesWithTheSameKey() {
        String signature = key.sign("POST", "/meta/cluster/forward", 1000, BODY);
        assertThat(key.verify("POST", "/meta/cluster/forward", "1000", signature, BODY, 1000)).isTrue();
        assertThat(key.verify("post", "/meta/cluster/forward", "1000", signature.toUpperCase(), BODY, 20_000)).isTrue();
    }

    @Test
    void anyChangeMissingHeaderOrStaleTimestampFails() {
        String signature = key.sign("POST", "/p", 1000, BODY);
        assertThat(key.verify("PUT", "/p", "1000", signature, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/q", "1000", signature, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/p", "1001", signature, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/p", "1000", signature, "{}".getBytes(StandardCharsets.UTF_8), 1000)).isFalse();
        assertThat(key.verify("POST", "/p", null, signature, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/p", "1000", null, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/p", "x", signature, BODY, 1000)).isFalse();
        assertThat(key.verify("POST", "/p", "1000", signature, BODY, 1000 + ClusterKey.MAX_AGE.toMillis() + 1)).isFalse();
        ClusterKey other = ClusterKey.of("another-key-of-16-bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(other.verify("POST", "/p", "1000", signature, BODY, 1000)).isFalse();
    }

    @Test
    void theKeyIsReadStrippedNeverShownAndMustBeLongEnough(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("key");
        Files.writeString(file, "  0123456789abcdef-shared\n");
        ClusterKey read = ClusterKey.read(file);
        assertThat(read.sign("GET", "/", 1, BODY)).isEqualTo(key.sign("GET", "/", 1, BODY));
        assertThat(read.toString()).doesNotContain("0123456789abcdef");
        Files.writeString(file, "short");
        assertThatThrownBy(() -> ClusterKey.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("short");
    }
}
