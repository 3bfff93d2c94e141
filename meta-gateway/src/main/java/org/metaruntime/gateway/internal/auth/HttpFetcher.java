package org.metaruntime.gateway.internal.auth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.supervisor.internal.Failures;

/**
 * GETs a JSON document with the JDK's HTTP client, the whole exchange (connect, headers and body) bounded by the
 * time given, the body by {@link #MAX_BYTES}. Thread-safe.
 */
final class HttpFetcher implements IssuerKeys.Fetcher {

    /** The largest document read. */
    static final int MAX_BYTES = 1024 * 1024;

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(IssuerKeys.FETCH_BOUND)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();

    @Override
    public String get(URI uri, Duration timeout) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET().build();
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request, info -> {
            long length = info.headers().firstValueAsLong("Content-Length").orElse(-1);
            return length > MAX_BYTES ? HttpResponse.BodySubscribers.replacing(null) : HttpResponse.BodySubscribers.ofByteArray();
        });
        HttpResponse<byte[]> response;
        try {
            response = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IOException(uri + " gave no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = Failures.unwrap(e);
            throw new IOException(uri + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer.cancel(true);
            throw new IOException("interrupted");
        }
        if (response.statusCode() != 200) {
            throw new IOException(uri + " answered HTTP " + response.statusCode());
        }
        if (response.body() == null || response.body().length > MAX_BYTES) {
            throw new IOException(uri + " answered more than " + MAX_BYTES + " bytes");
        }
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
