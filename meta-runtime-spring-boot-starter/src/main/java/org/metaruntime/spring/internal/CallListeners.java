package org.metaruntime.spring.internal;

import java.util.ArrayList;
import java.util.List;
import org.metaruntime.core.ModuleCallListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The context's {@link ModuleCallListener} beans as the runtime's one listener. Stateless. */
public final class CallListeners {

    private static final Logger LOG = LoggerFactory.getLogger(CallListeners.class);

    private CallListeners() {
    }

    /**
     * One listener telling each of {@code listeners} in order (a listener that throws is logged and skipped, the
     * others are still told); null when there is none.
     */
    public static ModuleCallListener of(List<ModuleCallListener> listeners) {
        List<ModuleCallListener> all = List.copyOf(listeners);
        if (all.isEmpty()) {
            return null;
        }
        if (all.size() == 1) {
            return all.get(0);
        }
        return (moduleId, tool) -> {
            List<ModuleCallListener.Ended> ends = new ArrayList<>(all.size());
            for (ModuleCallListener listener : all) {
                try {
                    ModuleCallListener.Ended end = listener.callStarted(moduleId, tool);
                    if (end != null) {
                        ends.add(end);
                    }
                } catch (RuntimeException e) {
                    LOG.warn("call listener {} failed: {}", listener, e.toString());
                }
            }
            return (outcome, error) -> {
                for (ModuleCallListener.Ended end : ends) {
                    try {
                        end.callEnded(outcome, error);
                    } catch (RuntimeException e) {
                        LOG.warn("call listener failed at the end of a call: {}", e.toString());
                    }
                }
            };
        };
    }
}
