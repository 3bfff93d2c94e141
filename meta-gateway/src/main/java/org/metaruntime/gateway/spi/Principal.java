package org.metaruntime.gateway.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who makes a call. Two principals are the same when their {@code auth} and {@code name} are equal.
 *
 * @param name the principal's name: {@code local}, {@code anonymous}, {@code token}, a named token's name, a JWT's
 *     {@code sub} (else its {@code client_id}), {@code pod:<name>}
 * @param auth how it was established: {@code local}, {@code none}, {@code token}, {@code tokens}, {@code oauth},
 *     {@code pod}, or a host's own word
 * @param profiles its profiles; empty: mapped by the policy's claim rules over {@code claims}
 * @param claims the token's claims (empty when there are none)
 */
public record Principal(String name, String auth, List<String> profiles, Map<String, Object> claims) {

    public Principal {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(auth, "auth");
        profiles = List.copyOf(profiles);
        claims = Map.copyOf(claims);
    }

    /** Whether {@code other} is the same principal: equal {@code auth} and {@code name}. */
    public boolean sameAs(Principal other) {
        return other != null && auth.equals(other.auth) && name.equals(other.name);
    }
}
