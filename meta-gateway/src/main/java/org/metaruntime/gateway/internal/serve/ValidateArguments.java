package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.Collection;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * Stage 6: the arguments are an object (absent: {@code {}}) that the tool's declared input schema accepts; else
 * -32602 with the violations in {@code data.violations}. Thread-safe.
 */
final class ValidateArguments implements CallStage {

    /** Made at the first schema to check: a gateway answers initialize before it loads a schema library. */
    private volatile JsonSchemaValidator validator;

    /** Prepares the validator of every declared input schema, so that no first call pays for it. */
    void prepare(Collection<ToolTable.Route> routes) {
        for (ToolTable.Route route : routes) {
            if (route.inputSchemaMap() != null) {
                validator().validate(route.inputSchemaMap(), JsonRpc.NODES.objectNode());
            }
        }
    }

    private JsonSchemaValidator validator() {
        JsonSchemaValidator made = validator;
        if (made == null) {
            synchronized (this) {
                made = validator;
                if (made == null) {
                    made = new DefaultJsonSchemaValidator(JsonRpc.MAPPER);
                    validator = made;
                }
            }
        }
        return made;
    }

    @Override
    public void run(PipelineCall call) {
        JsonNode arguments = call.arguments;
        if (arguments == null || arguments.isNull()) {
            call.checkedArguments = JsonRpc.NODES.objectNode();
            return;
        }
        if (!arguments.isObject()) {
            throw ToolCalls.failure(call.route, JsonRpc.INVALID_PARAMS,
                    (call.entry == PipelineCall.Entry.CLIENT ? "arguments" : "args") + " must be an object", null);
        }
        if (call.route.inputSchemaMap() != null) {
            JsonSchemaValidator.ValidationResponse response = validator().validate(call.route.inputSchemaMap(), arguments);
            if (!response.valid()) {
                String detail = response.errorMessage();
                int at = detail == null ? -1 : detail.indexOf("Validation errors:");
                String violations = at < 0 ? String.valueOf(detail) : detail.substring(at + "Validation errors:".length()).trim();
                throw ToolCalls.failure(call.route, JsonRpc.INVALID_PARAMS, "invalid arguments: " + violations,
                        JsonRpc.NODES.objectNode().put("violations", violations));
            }
        }
        call.checkedArguments = arguments;
    }
}
