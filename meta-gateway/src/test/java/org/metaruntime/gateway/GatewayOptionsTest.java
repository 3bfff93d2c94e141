package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.InvalidOptionException;

/** The gateway's options refuse a bad value with the runtime's one {@link InvalidOptionException}, naming the field. */
class GatewayOptionsTest {

    private static void refusedAt(String field, ThrowingCallable refused) {
        Throwable thrown = catchThrowable(refused);
        assertThat(thrown).isInstanceOf(InvalidOptionException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid configuration at " + field + ": ");
        assertThat(((InvalidOptionException) thrown).field()).isEqualTo(field);
    }

    @Test
    void gatewayOptionsNameTheirField() {
        refusedAt("maxCallDepth", () -> GatewayOptions.builder().maxCallDepth(0));
        refusedAt("separator", () -> GatewayOptions.builder().separator("a b"));
        refusedAt("otlpEndpoint", () -> GatewayOptions.builder().otlpEndpoint(URI.create("ftp://collector:4318")));
        refusedAt("localProfile", () -> GatewayOptions.builder().localProfile("ghost").build());
    }

    @Test
    void httpOptionsNameTheirField() {
        refusedAt("token", () -> HttpOptions.builder().token(" "));
        refusedAt("publicUrl", () -> HttpOptions.builder().publicUrl(URI.create("ftp://example.com/mcp")));
        refusedAt("allowedOrigins", () -> HttpOptions.builder().allowOrigin("example.com"));
        refusedAt("maxRequestBytes", () -> HttpOptions.builder().maxRequestBytes(10));
        refusedAt("sessionIdleTimeout", () -> HttpOptions.builder().sessionIdleTimeout(Duration.ZERO));
        refusedAt("keepAlive", () -> HttpOptions.builder().keepAlive(Duration.ofSeconds(-1)));
        refusedAt("shutdownTimeout", () -> HttpOptions.builder().shutdownTimeout(Duration.ofSeconds(-1)));
        Handler none = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                return false;
            }
        };
        refusedAt("handlers", () -> HttpOptions.builder().handler("/mcp", none));
        refusedAt("handlers", () -> HttpOptions.builder().handler("relative", none));
    }

    @Test
    void aValueOutOfRangeIsRefusedInTheRuntimesOneWording() {
        assertThatThrownBy(() -> GatewayOptions.builder().maxCallDepth(0))
                .hasMessage("invalid configuration at maxCallDepth: must be at least 1, got 0");
        assertThatThrownBy(() -> HttpOptions.builder().maxRequestBytes(10))
                .hasMessage("invalid configuration at maxRequestBytes: must be at least 1024, got 10");
        assertThatThrownBy(() -> HttpOptions.builder().sessionIdleTimeout(Duration.ZERO))
                .hasMessage("invalid configuration at sessionIdleTimeout: must be positive, got PT0S");
        assertThatThrownBy(() -> HttpOptions.builder().keepAlive(Duration.ofSeconds(-1)))
                .hasMessage("invalid configuration at keepAlive: must be positive, got PT-1S");
        assertThatThrownBy(() -> HttpOptions.builder().shutdownTimeout(Duration.ofSeconds(-1)))
                .hasMessage("invalid configuration at shutdownTimeout: must not be negative, got PT-1S");
        assertThatThrownBy(() -> OAuthOptions.builder().clockSkew(Duration.ofSeconds(-1)))
                .hasMessage("invalid configuration at clockSkew: must not be negative, got PT-1S");
        HttpOptions atTheBounds = HttpOptions.builder().maxRequestBytes(1024).shutdownTimeout(Duration.ZERO).build();
        assertThat(atTheBounds.maxRequestBytes()).isEqualTo(1024);
        assertThat(atTheBounds.shutdownTimeout()).isZero();
    }

    @Test
    void oauthOptionsNameTheirField() {
        refusedAt("issuer", () -> OAuthOptions.builder().issuer(URI.create("https://issuer.example/?q=1")));
        refusedAt("audience", () -> OAuthOptions.builder().audience(" "));
        refusedAt("requiredScopes", () -> OAuthOptions.builder().requiredScopes("a\"b"));
        refusedAt("clockSkew", () -> OAuthOptions.builder().clockSkew(Duration.ofSeconds(-1)));
        refusedAt("issuer", () -> OAuthOptions.builder().audience("mcp").build());
        refusedAt("audience", () -> OAuthOptions.builder().issuer(URI.create("https://issuer.example")).build());
    }

    @Test
    void everyOptionsGroupGivesABuilderHoldingIt() {
        GatewayOptions gateway = GatewayOptions.builder().maxCallDepth(3).separator("-").auditArguments(true).build();
        GatewayOptions copy = gateway.toBuilder().build();
        assertThat(copy.maxCallDepth()).isEqualTo(3);
        assertThat(copy.separator()).isEqualTo("-");
        assertThat(copy.auditArguments()).isTrue();

        HttpOptions http = HttpOptions.builder().token("secret-token").maxRequestBytes(2048)
                .allowOrigin("https://app.example.com").keepAlive(Duration.ofSeconds(3)).build();
        HttpOptions httpCopy = http.toBuilder().build();
        assertThat(httpCopy.token()).isEqualTo(http.token());
        assertThat(httpCopy.maxRequestBytes()).isEqualTo(2048);
        assertThat(httpCopy.allowedOrigins()).isEqualTo(http.allowedOrigins());
        assertThat(httpCopy.keepAlive()).isEqualTo(Duration.ofSeconds(3));

        OAuthOptions oauth = OAuthOptions.builder().issuer(URI.create("https://issuer.example")).audience("mcp")
                .requiredScopes("a b").clockSkew(Duration.ofSeconds(5)).build();
        assertThat(oauth.toBuilder().build().toString()).isEqualTo(oauth.toString());
    }
}
