package org.metaruntime.core;

import java.util.Objects;
import java.util.Optional;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleError;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * Which boundary failed, wrapping that boundary's own error. A value: match on the record. Its {@link #message()}
 * is one readable sentence, its {@link #code()} the stable code of the wrapped error, e.g. {@code process.timeout}
 * or {@code mcp.tool_not_found}.
 *
 * <pre>{@code
 * if (error instanceof RuntimeBoundaryError.Mcp mcp
 *         && mcp.error() instanceof McpBoundaryError.ToolNotFound missing) {
 *     log.warn("no tool {}; available: {}", missing.tool(), missing.availableTools());
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface RuntimeBoundaryError extends ModuleError {

    /**
     * {@link #message()}, followed by how to fix it when the cause is a usual mistake: a module that exits without
     * writing a line is often an MCP server configured without the MCP marker. {@code McpRequired(id, "mcp")}, the
     * error of {@code UnifiedRuntime.mcp(id)} for an event-line module, says which module and boundary it is.
     */
    default String explained() {
        if (this instanceof Process process && process.error() instanceof ProcessBoundaryError.EmptyOutput) {
            return message() + "; if it is an MCP server, " + markAsMcp();
        }
        if (this instanceof Mcp mcp && mcp.error() instanceof McpBoundaryError.McpRequired required
                && required.flow().equals("mcp")) {
            return "module '" + required.moduleId() + "' is an event-line module (each call runs it once and reads "
                    + "its first event; it has no MCP session), and UnifiedRuntime.mcp serves MCP modules only; if it "
                    + "is an MCP server, " + markAsMcp();
        }
        return message();
    }

    /** How a host selects the MCP boundary for a module. */
    private static String markAsMcp() {
        return "declare it with ModuleConfig.Builder.protocol(ModuleProtocol.mcp()), or mark it with "
                + "MetaConfig.Builder.mcp(module) or preSpawn(PreSpawnData.mcp(id)) "
                + "(META_MODULE_BOUNDARY in ModuleConfig.env does not select the boundary)";
    }

    /** Whether the call ran out of time (a process or MCP {@code Timeout}). */
    default boolean isTimeout() {
        return this instanceof Process process && process.error() instanceof ProcessBoundaryError.Timeout
                || this instanceof Mcp mcp && McpErrorCodes.isTimeout(mcp.error());
    }

    /** The MCP boundary's error, when this is one. */
    default Optional<McpBoundaryError> mcpError() {
        return this instanceof Mcp mcp ? Optional.of(mcp.error()) : Optional.empty();
    }

    /** The process boundary's error, when this is one. */
    default Optional<ProcessBoundaryError> processError() {
        return this instanceof Process process ? Optional.of(process.error()) : Optional.empty();
    }

    /** The module's process failed (spawn, I/O, timeout, no output, line too long, exit). */
    record Process(ProcessBoundaryError error) implements RuntimeBoundaryError, ModuleError.Wrapper {
        /** Validates the error. */
        public Process {
            Objects.requireNonNull(error, "error");
        }
    }

    /** The module's first line is not a valid event. */
    record Normalize(NormalizationError error) implements RuntimeBoundaryError {
        /** Validates the error. */
        public Normalize {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String message() {
            return "the module's output is not a valid event (" + error + ")";
        }

        /** The normalisation error's code. */
        @Override
        public String code() {
            return error.code();
        }
    }

    /** The MCP boundary failed. */
    record Mcp(McpBoundaryError error) implements RuntimeBoundaryError, ModuleError.Wrapper {
        /** Validates the error. */
        public Mcp {
            Objects.requireNonNull(error, "error");
        }
    }
}
