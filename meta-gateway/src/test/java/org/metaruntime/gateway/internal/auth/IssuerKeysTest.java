package org.metaruntime.gateway.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.internal.manual.ManualClock;

/** One fetch of an issuer's keys at a time: callers arriving while it is in flight wait for it and share its keys. */
class IssuerKeysTest {

    private static final URI ISSUER = URI.create("https://login.example.com");

    @Test
    void callersWaitForTheFetchInFlightInsteadOfStartingTheirOwn() throws Exception {
        String jwks = new JWKSet(new RSAKeyGenerator(2048).keyID("k1").generate().toPublicJWK()).toString();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger keyFetches = new AtomicInteger();
        IssuerKeys keys = new IssuerKeys(ISSUER, new ManualClock(), (uri, timeout) -> {
            if (uri.getPath().endsWith("openid-configuration")) {
                return "{\"issuer\":\"" + ISSUER + "\",\"jwks_uri\":\"" + ISSUER + "/keys\"}";
            }
            if (uri.getPath().equals("/keys")) {
                keyFetches.incrementAndGet();
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new java.io.IOException("interrupted");
                }
                return jwks;
            }
            throw new java.io.IOException("HTTP 404");
        });
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<Integer>> found = new ArrayList<>();
            found.add(CompletableFuture.supplyAsync(() -> count(keys), callers));
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            List<Thread> waiting = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                found.add(CompletableFuture.supplyAsync(() -> {
                    synchronized (waiting) {
                        waiting.add(Thread.currentThread());
                    }
                    return count(keys);
                }, callers));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                synchronized (waiting) {
                    return waiting.size() == 7 && waiting.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING);
                }
            });
            release.countDown();
            for (CompletableFuture<Integer> f : found) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            }
            assertThat(keyFetches).hasValue(1);
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    private static int count(IssuerKeys keys) {
        try {
            return keys.candidates("k1", JWSAlgorithm.RS256).size();
        } catch (IssuerKeys.Unavailable e) {
            return -1;
        }
    }
}
