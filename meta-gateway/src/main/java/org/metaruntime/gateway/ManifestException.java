package org.metaruntime.gateway;

import java.util.List;

/**
 * Thrown by {@link MetaGateway.Builder#build()} when a manifest or config is invalid; carries every problem.
 */
public final class ManifestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<ManifestProblem> problems;

    /** An exception for {@code problems} (at least one). */
    public ManifestException(List<ManifestProblem> problems) {
        super(problems.size() + (problems.size() == 1 ? " manifest problem, first: " : " manifest problems, first: ")
                + problems.get(0));
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in file and line order. */
    public List<ManifestProblem> problems() {
        return problems;
    }
}
