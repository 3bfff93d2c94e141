package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * The embedded gateway serves HTTP without a credential on a loopback address only, and OAuth on a wildcard address
 * only with a public URL: elsewhere {@link MetaGateway#serveHttp} refuses with an {@link IllegalArgumentException}
 * before it binds or starts anything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpTokenRuleTest {

    @TempDir
    Path dir;

    private MetaGateway gateway;

    @BeforeEach
    void build() throws IOException {
        gateway = MetaGateway.builder().manifests(NodeClient.manifests(dir, dir.resolve("pids"), "fixture")).build();
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void close() {
        gateway.close();
    }

    @Test
    void withoutATokenOnlyLoopbackIsServed() {
        assertThatThrownBy(() -> gateway.serveHttp(new InetSocketAddress("0.0.0.0", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serving on 0.0.0.0 needs a credential (only loopback addresses may serve without one)");
        for (String loopback : new String[] {"127.0.0.1", "localhost"}) {
            Serving serving = gateway.serveHttp(new InetSocketAddress(loopback, 0));
            assertThat(serving.port()).as(loopback).isPositive();
            serving.close();
        }
    }

    @Test
    void oauthOnAWildcardAddressNeedsAPublicUrl() {
        OAuthOptions oauth = OAuthOptions.builder().issuer(java.net.URI.create("http://127.0.0.1:9/")).audience("gw").build();
        assertThatThrownBy(() -> gateway.serveHttp(new InetSocketAddress("0.0.0.0", 0), HttpOptions.builder().oauth(oauth).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serving OAuth on the wildcard address 0.0.0.0 needs a public URL (the resource URL clients use)");
        Serving serving = gateway.serveHttp(new InetSocketAddress("0.0.0.0", 0), HttpOptions.builder().oauth(oauth)
                .publicUrl(java.net.URI.create("https://gateway.example.com/mcp")).build());
        assertThat(serving.port()).isPositive();
        serving.close();
    }

    @Test
    void withATokenAnyAddressIsServed() {
        Serving serving = gateway.serveHttp(new InetSocketAddress("0.0.0.0", 0), HttpOptions.builder().token("t0ken").build());
        assertThat(serving.port()).isPositive();
        serving.close();
    }
}
