package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.metaruntime.gateway.internal.contract.DefinitionHash;
import org.metaruntime.gateway.internal.contract.Expectation;
import org.metaruntime.gateway.internal.pipeline.DefinitionCheck;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * Stage 7: for a pod's call, its chain (a target already on it is a cycle, a chain longer than the maximum depth is too
 * deep: -32004 with the chain) and its {@code expect} (-32005 with what was expected and found); for every call, the
 * tool's definition pin ({@link DefinitionCheck}). Thread-safe.
 */
final class CheckCall implements CallStage {

    private final int maxDepth;
    private final DefinitionCheck definitions;

    CheckCall(int maxDepth, DefinitionCheck definitions) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("the maximum call depth must be at least 1, not " + maxDepth);
        }
        this.maxDepth = maxDepth;
        this.definitions = definitions;
    }

    @Override
    public void run(PipelineCall call) {
        if (call.entry == PipelineCall.Entry.NESTED) {
            chain(call.route, call.callersChain);
            expectation(call.route, call.expect, definitionHash(call.route));
        }
        definitions.check(call.route.pod(), call.route.tool()).ifPresent(blocked -> {
            throw blocked;
        });
    }

    private void chain(ToolTable.Route route, List<String> chain) {
        List<String> next = new ArrayList<>(chain);
        next.add(route.chainName());
        ObjectNode data = JsonRpc.NODES.objectNode();
        ArrayNode list = data.putArray("chain");
        next.forEach(list::add);
        if (chain.contains(route.chainName())) {
            throw ToolCalls.failure(route, JsonRpc.CYCLE, "call cycle: " + String.join(" -> ", next), data);
        }
        if (next.size() > maxDepth) {
            data.put("maxDepth", maxDepth);
            throw ToolCalls.failure(route, JsonRpc.CYCLE, "the call chain would be " + next.size()
                    + " deep, more than the maximum of " + maxDepth + ": " + String.join(" -> ", next), data);
        }
    }

    /** The target's definition hash as the status shows it: the live one once its pod listed it, else the declared one. */
    private String definitionHash(ToolTable.Route route) {
        return definitions.liveHash(route.pod(), route.tool()).orElseGet(() -> {
            if (!route.declared()) {
                return null;
            }
            ObjectNode declared = route.definition().deepCopy().put("name", route.tool());
            return DefinitionHash.of(declared);
        });
    }

    private static void expectation(ToolTable.Route route, JsonNode expectNode, String definitionHash) {
        Expectation expect;
        try {
            expect = Expectation.parse(expectNode);
        } catch (IllegalArgumentException e) {
            throw ToolCalls.failure(route, JsonRpc.INVALID_PARAMS, e.getMessage(), null);
        }
        Optional<ObjectNode> mismatch = expect.check(route.contract() == null ? null : route.contract().id(),
                route.contract() == null ? null : route.contract().version(), route.schemaHash(), definitionHash);
        if (mismatch.isPresent()) {
            List<String> names = new ArrayList<>();
            mismatch.get().get("mismatch").forEach(n -> names.add(n.asText()));
            throw ToolCalls.failure(route, JsonRpc.CONTRACT_MISMATCH, "contract mismatch (" + String.join(", ", names)
                    + "): expected " + mismatch.get().get("expected") + ", found " + mismatch.get().get("found"), mismatch.get());
        }
    }
}
