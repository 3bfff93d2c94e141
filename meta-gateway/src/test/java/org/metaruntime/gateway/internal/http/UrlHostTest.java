package org.metaruntime.gateway.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The readiness line's URL names an IPv6 address in its shortest form (RFC 5952), in brackets. */
class UrlHostTest {

    @ParameterizedTest
    @CsvSource({
        "::1, [::1]",
        "0:0:0:0:0:0:0:1, [::1]",
        "[0:0:0:0:0:0:0:1], [::1]",
        "0:0:0:0:0:0:0:0, [::]",
        "1:0:0:0:0:0:0:0, [1::]",
        "2001:DB8:0:0:1:0:0:1, [2001:db8::1:0:0:1]",
        "2001:db8:0:0:0:1:0:0, [2001:db8::1:0:0]",
        "2001:db8:0:1:1:1:1:1, [2001:db8:0:1:1:1:1:1]",
        "fe80:0:0:0:0:0:0:1%lo, [fe80::1%lo]",
        "127.0.0.1, 127.0.0.1",
        "localhost, localhost",
    })
    void ipv6AddressesAreShortAndBracketed(String host, String expected) {
        assertThat(HttpServing.urlHost(host)).isEqualTo(expected);
    }
}
