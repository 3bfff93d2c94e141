package org.metaruntime.spring.internal;

import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;

/** What a module's supervisor report says about it. Stateless. */
public final class ModuleStates {

    private ModuleStates() {
    }

    /** Whether it is a loaded lazy module that has not been started yet: stopped at attempt 0, without an error. */
    public static boolean notStarted(ModuleSupervisorReport report) {
        return report != null && report.state() == ModuleHealthState.STOPPED && report.attempt() == 0
                && report.lastError() == null && report.pid().isEmpty();
    }

    /** The reason a module is down: its report's last error, else the runtime's answer to a call. */
    public static String errorOf(UnifiedRuntime runtime, String moduleId, ModuleSupervisorReport report) {
        if (report != null && report.lastError() != null) {
            return report.lastError();
        }
        try {
            runtime.mcp(moduleId);
        } catch (ModuleRouteException e) {
            return e.getMessage();
        }
        return report == null ? "it did not start" : "its state is " + report.state().jsonName();
    }
}
