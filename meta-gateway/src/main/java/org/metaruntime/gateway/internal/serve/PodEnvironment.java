package org.metaruntime.gateway.internal.serve;

import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.metaruntime.core.ProcessOptions;

/**
 * Which of the gateway's environment variables its pods inherit: every one the runtime's {@link ProcessOptions} would
 * pass, but the gateway's own. A variable is the gateway's own when its name starts with {@value #OWN_PREFIX} (the
 * token variable, the JVM options, ...), when its value is a credential the gateway holds (its bearer token, read
 * from a variable of any name or from a file), or when a remote pod's {@code headers} read it ({@code ${NAME}}: the
 * credentials of remote servers). A pod's manifest {@code env} still sets any variable it names. Stateless.
 */
final class PodEnvironment {

    /** The prefix of the gateway's own variables. */
    static final String OWN_PREFIX = "META_GATEWAY_";

    private PodEnvironment() {
    }

    /**
     * The process options of the pods: {@code process} with only the inherited variables of {@code host} passed.
     *
     * @param credentials the credentials the gateway holds (its bearer token, when it has one)
     * @param withheld    the names of the variables that remote pods' headers read
     */
    static ProcessOptions processOptions(ProcessOptions process, Map<String, String> host, Collection<String> credentials,
                                         Set<String> withheld) {
        Set<String> secrets = new HashSet<>();
        for (String credential : credentials) {
            if (!credential.isBlank()) {
                secrets.add(credential.strip());
            }
        }
        Set<String> candidates = process.inheritEnv() ? host.keySet() : process.passThroughEnv();
        Set<String> inherited = new TreeSet<>();
        for (String name : candidates) {
            String value = host.get(name);
            if (value != null && !withheld.contains(name) && !isOwn(name, value, secrets)) {
                inherited.add(name);
            }
        }
        return process.toBuilder().inheritEnv(false).passThroughEnv(inherited).build();
    }

    private static boolean isOwn(String name, String value, Set<String> secrets) {
        return name.toUpperCase(Locale.ROOT).startsWith(OWN_PREFIX) || secrets.contains(value.strip());
    }
}
