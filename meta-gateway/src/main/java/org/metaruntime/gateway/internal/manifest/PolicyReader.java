package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.gateway.ManifestException;

/**
 * Reads a gateway policy file ({@code kind: GatewayPolicy}): its profiles, default profile and claim rules. Every
 * problem is reported at its {@code file:line}, all of them at once. Stateless.
 */
public final class PolicyReader {

    /** The {@code kind} of a policy file. */
    public static final String KIND = "GatewayPolicy";
    private static final Set<String> ROOT_KEYS = keys("apiVersion", "kind", "defaultProfile", "profiles", "principals");
    private static final Set<String> PROFILE_KEYS = keys("tools", "tags", "excludeTools", "rateLimit", "toolRateLimit", "admin");
    private static final Set<String> RATE_KEYS = keys("rate", "burst");
    private static final Set<String> RULE_KEYS = keys("claim", "contains", "equals", "profiles");

    private PolicyReader() {
    }

    /**
     * The policy of {@code file}.
     *
     * @throws ManifestException with every problem ({@code file:line: message})
     */
    public static PolicyDocument read(Path file) {
        Problems problems = new Problems();
        LocatedTree tree;
        try {
            tree = LocatedTree.readYaml(file);
        } catch (LocatedTree.SyntaxException e) {
            problems.add(file, e.line(), e.getMessage());
            throw new ManifestException(problems.sorted());
        } catch (IOException e) {
            problems.add(file, 1, "cannot read the file: " + e.getMessage());
            throw new ManifestException(problems.sorted());
        }
        PolicyDocument policy = read(tree, problems);
        if (problems.size() > 0) {
            throw new ManifestException(problems.sorted());
        }
        return policy;
    }

    private static PolicyDocument read(LocatedTree tree, Problems problems) {
        TypedFields fields = new TypedFields(tree, problems);
        JsonNode root = tree.root();
        if (root == null || !root.isObject()) {
            fields.problem("", "a policy is a mapping with apiVersion, kind and profiles");
            return PolicyDocument.ALLOW_ALL;
        }
        fields.unknownKeys(root, "", ROOT_KEYS);
        JsonNode apiVersion = fields.required(root, "", "apiVersion");
        if (apiVersion != null && !(apiVersion.isTextual() && ManifestReader.API_VERSION.equals(apiVersion.textValue()))) {
            fields.problem("/apiVersion", "apiVersion must be " + ManifestReader.API_VERSION + ", not " + apiVersion);
        }
        JsonNode kind = fields.required(root, "", "kind");
        if (kind != null && !(kind.isTextual() && KIND.equals(kind.textValue()))) {
            fields.problem("/kind", "kind must be " + KIND + ", not " + kind);
        }
        Map<String, PolicyProfile> profiles = new LinkedHashMap<>();
        JsonNode profilesNode = fields.mapping(root, "", "profiles", false);
        if (profilesNode != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = profilesNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                profile(fields, entry.getKey(), entry.getValue()).ifPresent(p -> profiles.put(p.name(), p));
            }
        }
        Set<String> defined = new LinkedHashSet<>(profilesNode == null ? List.of() : names(profilesNode));
        String defaultProfile = fields.text(root, "", "defaultProfile", false);
        if (defaultProfile != null && !defined.contains(defaultProfile) && !PolicyProfile.ALL.equals(defaultProfile)) {
            fields.problem("/defaultProfile", "defaultProfile \"" + defaultProfile + "\" is not a profile of this policy"
                    + known(defined));
        }
        List<ClaimRule> rules = rules(fields, root, defined);
        return new PolicyDocument(profiles, Optional.ofNullable(defaultProfile), rules);
    }

    private static Optional<PolicyProfile> profile(TypedFields fields, String name, JsonNode node) {
        String at = "/profiles/" + name.replace("~", "~0").replace("/", "~1");
        boolean ok = true;
        if (PolicyProfile.ALL.equals(name)) {
            fields.problem(at, "profile \"all\" is built in (every tool, no limits, admin) and cannot be redefined");
            ok = false;
        } else if (!Names.validTag(name)) {
            fields.problem(at, "profile name \"" + name + "\" must be 1 to 64 of letters, digits, _ . -");
            ok = false;
        }
        if (!node.isObject()) {
            fields.problem(at, "profiles." + name + " must be a mapping, not " + TypedFields.typeOf(node));
            return Optional.empty();
        }
        fields.unknownKeys(node, at, PROFILE_KEYS);
        List<String> tools = strings(fields, node, at, "tools", false);
        List<String> tags = strings(fields, node, at, "tags", true);
        List<String> exclude = strings(fields, node, at, "excludeTools", false);
        boolean admin = fields.bool(node, at, "admin", false);
        Rate rate = rate(fields, node, at, "rateLimit");
        Rate toolRate = rate(fields, node, at, "toolRateLimit");
        return ok ? Optional.of(new PolicyProfile(name, tools, new LinkedHashSet<>(tags), exclude, admin, rate, toolRate))
                : Optional.empty();
    }

    private static List<String> strings(TypedFields fields, JsonNode parent, String at, String key, boolean tags) {
        JsonNode node = parent.get(key);
        List<String> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        String where = TypedFields.dotted(at + "/" + key);
        String what = tags ? "tag names (1 to 64 of letters, digits, _ . -)" : "outward tool names or globs (* for any characters, ? for one)";
        if (!node.isArray()) {
            fields.problem(at + "/" + key, where + " must be a list of " + what + ", not " + TypedFields.typeOf(node));
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            boolean valid = item.isTextual() && (tags ? Names.validTag(item.textValue()) : !item.textValue().isEmpty());
            if (valid) {
                out.add(item.textValue());
            } else {
                fields.problem(at + "/" + key + "/" + i, where + "[" + i + "] must be one of " + what + ", not " + item);
            }
        }
        return out;
    }

    private static Rate rate(TypedFields fields, JsonNode parent, String at, String key) {
        JsonNode node = fields.mapping(parent, at, key, false);
        if (node == null) {
            return null;
        }
        String here = at + "/" + key;
        fields.unknownKeys(node, here, RATE_KEYS);
        JsonNode rateNode = fields.required(node, here, "rate");
        Long burst = null;
        JsonNode burstNode = node.get("burst");
        if (burstNode != null) {
            if (burstNode.canConvertToLong() && burstNode.isIntegralNumber() && burstNode.longValue() >= 1) {
                burst = burstNode.longValue();
            } else {
                fields.problem(here + "/burst", TypedFields.dotted(here + "/burst") + " must be a positive integer, not " + burstNode);
                return null;
            }
        }
        if (rateNode == null) {
            return null;
        }
        Optional<Rate> rate = rateNode.isTextual() ? Rate.parse(rateNode.textValue(), burst) : Optional.empty();
        if (rate.isEmpty()) {
            fields.problem(here + "/rate", TypedFields.dotted(here + "/rate") + " must be N/s, N/min or N/h with N a positive"
                    + " integer, not " + rateNode);
            return null;
        }
        return rate.get();
    }

    private static List<ClaimRule> rules(TypedFields fields, JsonNode root, Set<String> defined) {
        JsonNode node = root.get("principals");
        List<ClaimRule> rules = new ArrayList<>();
        if (node == null) {
            return rules;
        }
        if (!node.isArray()) {
            fields.problem("/principals", "principals must be a list of rules ({claim, contains or equals, profiles}), not "
                    + TypedFields.typeOf(node));
            return rules;
        }
        for (int i = 0; i < node.size(); i++) {
            String at = "/principals/" + i;
            JsonNode rule = node.get(i);
            if (!rule.isObject()) {
                fields.problem(at, "principals[" + i + "] must be a mapping {claim, contains or equals, profiles}, not "
                        + TypedFields.typeOf(rule));
                continue;
            }
            fields.unknownKeys(rule, at, RULE_KEYS);
            String claim = fields.text(rule, at, "claim", true);
            String contains = fields.text(rule, at, "contains", false);
            String equals = fields.text(rule, at, "equals", false);
            if (rule.has("contains") == rule.has("equals")) {
                fields.problem(at, "principals[" + i + "] needs exactly one of contains and equals");
            }
            JsonNode profilesNode = fields.required(rule, at, "profiles");
            List<String> profiles = new ArrayList<>();
            if (profilesNode != null && !profilesNode.isArray()) {
                fields.problem(at + "/profiles", "principals[" + i + "].profiles must be a list of profile names, not "
                        + TypedFields.typeOf(profilesNode));
            } else if (profilesNode != null) {
                for (int j = 0; j < profilesNode.size(); j++) {
                    JsonNode name = profilesNode.get(j);
                    if (!name.isTextual() || !(defined.contains(name.textValue()) || PolicyProfile.ALL.equals(name.textValue()))) {
                        fields.problem(at + "/profiles/" + j, "principals[" + i + "].profiles[" + j + "]: " + name
                                + " is not a profile of this policy" + known(defined));
                    } else {
                        profiles.add(name.textValue());
                    }
                }
            }
            if (claim != null && (contains == null) != (equals == null)) {
                rules.add(new ClaimRule(claim, contains, equals, profiles));
            }
        }
        return rules;
    }

    private static List<String> names(JsonNode mapping) {
        List<String> names = new ArrayList<>();
        mapping.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String known(Set<String> defined) {
        return " (defined: " + (defined.isEmpty() ? "none" : String.join(", ", defined)) + ", and all)";
    }

    private static Set<String> keys(String... keys) {
        return new LinkedHashSet<>(List.of(keys));
    }
}
