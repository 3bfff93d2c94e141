package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * Stage 6: the arguments are an object (absent: {@code {}}) that the tool's declared input schema accepts; else
 * -32602 with the violations in {@code data.violations}. Each declared schema is compiled once (the MCP SDK's JSON
 * Schema validator, draft 2020-12, whose report the violations are) and checks the arguments as received, with no
 * copy; a tool without a declared schema is not checked. Thread-safe.
 */
final class ValidateArguments implements CallStage {

    /** More compiled schemas than this (routes rebuilt without a reload) start the cache again. */
    private static final int MAX_COMPILED = 4096;

    /** Made at the first schema to check: a gateway answers initialize before it loads a schema library. */
    private volatile Validators validators;
    /** The compiled schema of each declared input schema, by identity. */
    private volatile Map<SchemaKey, Schema> compiled = new ConcurrentHashMap<>();

    /** The schema library's two views: compiled schemas, and the SDK's validator whose report a refusal carries. */
    private record Validators(SchemaRegistry registry, JsonSchemaValidator reporting) {
    }

    /** A declared schema by identity: the route's node, shared by the routes of one catalog. */
    private record SchemaKey(JsonNode schema) {
        @Override
        public boolean equals(Object other) {
            return other instanceof SchemaKey key && key.schema == schema;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(schema);
        }
    }

    /** Compiles the schema of every declared tool of {@code routes} (and forgets others), so that no call pays for it. */
    void prepare(Collection<ToolTable.Route> routes) {
        Map<SchemaKey, Schema> next = new ConcurrentHashMap<>();
        for (ToolTable.Route route : routes) {
            if (route.inputSchemaMap() != null) {
                Schema schema = schema(route);
                next.put(new SchemaKey(route.inputSchema()), schema);
                schema.validate(JsonRpc.NODES.objectNode());
            }
        }
        compiled = next;
    }

    private Validators validators() {
        Validators made = validators;
        if (made == null) {
            synchronized (this) {
                made = validators;
                if (made == null) {
                    made = new Validators(SchemaRegistry.withDefaultDialect(Dialects.getDraft202012()),
                            new DefaultJsonSchemaValidator(JsonRpc.MAPPER));
                    validators = made;
                }
            }
        }
        return made;
    }

    /** The route's compiled input schema, compiled now if it was not. */
    private Schema schema(ToolTable.Route route) {
        Map<SchemaKey, Schema> cache = compiled;
        SchemaKey key = new SchemaKey(route.inputSchema());
        Schema schema = cache.get(key);
        if (schema == null) {
            schema = validators().registry().getSchema(JsonRpc.MAPPER.valueToTree(route.inputSchemaMap()));
            if (cache.size() >= MAX_COMPILED) {
                cache.clear();
            }
            cache.put(key, schema);
        }
        return schema;
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
        if (call.route.inputSchemaMap() != null && !schema(call.route).validate(arguments).isEmpty()) {
            JsonSchemaValidator.ValidationResponse response = validators().reporting()
                    .validate(call.route.inputSchemaMap(), arguments);
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
