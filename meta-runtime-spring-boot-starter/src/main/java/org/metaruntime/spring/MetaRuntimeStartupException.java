package org.metaruntime.spring;

import java.util.List;
import java.util.Map;

/**
 * The application context did not start because {@code meta.runtime.fail-fast} is set and an eager module's startup
 * did not end {@code Healthy}. The runtime was closed first: no module process is left.
 *
 * <pre>{@code
 * try {
 *     SpringApplication.run(App.class, args);
 * } catch (BeanCreationException e) {
 *     if (NestedExceptionUtils.getRootCause(e) instanceof MetaRuntimeStartupException failed) {
 *         log.error("modules down: {}", failed.failedModules());
 *     }
 * }
 * }</pre>
 *
 * <p>Immutable.
 */
public class MetaRuntimeStartupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> failedModules;

    /**
     * @param errors the error of each module that failed, by id, in declaration order
     */
    public MetaRuntimeStartupException(Map<String, String> errors) {
        super(message(errors));
        this.failedModules = List.copyOf(errors.keySet());
    }

    private static String message(Map<String, String> errors) {
        StringBuilder message = new StringBuilder(errors.size() == 1 ? "module " : "modules ")
                .append(String.join(", ", errors.keySet()))
                .append(" did not start (meta.runtime.fail-fast is set): ");
        String separator = "";
        for (Map.Entry<String, String> error : errors.entrySet()) {
            message.append(separator).append(error.getKey()).append(": ").append(error.getValue());
            separator = "; ";
        }
        return message.toString();
    }

    /** The ids of the eager modules that did not start, in declaration order. */
    public List<String> failedModules() {
        return failedModules;
    }
}
