package org.metaruntime.gateway.internal.auth;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.NamedToken;
import org.metaruntime.gateway.internal.manifest.LocatedTree;
import org.metaruntime.gateway.internal.manifest.Problems;
import org.metaruntime.gateway.internal.manifest.Variables;

/**
 * Reads a named tokens file: a YAML list whose entries have {@code name}, exactly one of {@code token} (with
 * {@code ${NAME}} read from the environment) or {@code sha256}, and optional {@code profiles}. Every problem is
 * reported as {@code file:line: message}, never with a token's value. Stateless.
 */
public final class NamedTokensFile {

    private static final Set<String> KEYS = Set.of("name", "token", "sha256", "profiles");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@:-]{1,64}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private NamedTokensFile() {
    }

    /**
     * What a tokens file holds.
     *
     * @param tokens    its entries
     * @param variables the environment variables its {@code token} values read (they hold credentials)
     */
    public record Entries(List<NamedToken> tokens, Set<String> variables) {
        public Entries {
            tokens = List.copyOf(tokens);
            variables = Set.copyOf(variables);
        }
    }

    /**
     * The entries of {@code file}.
     *
     * @param env           the environment {@code ${NAME}} is read from
     * @param knownProfile  which profile names exist ({@code all} always does)
     * @throws ManifestException with every problem found
     */
    public static List<NamedToken> read(Path file, Map<String, String> env, Predicate<String> knownProfile) {
        return readEntries(file, env, knownProfile).tokens();
    }

    /**
     * The entries of {@code file} and the variables they read.
     *
     * @throws ManifestException with every problem found
     */
    public static Entries readEntries(Path file, Map<String, String> env, Predicate<String> knownProfile) {
        Problems problems = new Problems();
        LocatedTree tree;
        try {
            tree = LocatedTree.readYaml(file);
        } catch (IOException e) {
            problems.add(file, 1, "the tokens file cannot be read: " + e.getMessage());
            throw new ManifestException(problems.sorted());
        } catch (LocatedTree.SyntaxException e) {
            problems.add(file, e.line(), e.getMessage());
            throw new ManifestException(problems.sorted());
        }
        JsonNode root = tree.root();
        if (!root.isArray()) {
            problems.add(tree, "", "a tokens file is a YAML list of entries with name, token or sha256, and profiles");
            throw new ManifestException(problems.sorted());
        }
        List<NamedToken> tokens = new ArrayList<>();
        Set<String> variables = new java.util.TreeSet<>();
        Map<String, Integer> names = new HashMap<>();
        Map<String, String> hashes = new HashMap<>();
        for (int i = 0; i < root.size(); i++) {
            String at = "/" + i;
            JsonNode entry = root.get(i);
            if (!entry.isObject()) {
                problems.add(tree, at, "an entry is a mapping with name, token or sha256, and profiles");
                continue;
            }
            int before = problems.size();
            for (Iterator<String> keys = entry.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!KEYS.contains(key)) {
                    problems.add(tree, at + "/" + key, "unknown key \"" + key + "\" in a token entry (name, token, sha256, profiles)");
                }
            }
            String name = name(tree, entry, at, names, problems);
            String hash = hash(tree, entry, at, env, problems);
            List<String> profiles = profiles(tree, entry, at, knownProfile, problems);
            if (hash != null) {
                String other = hashes.putIfAbsent(hash, name == null ? "?" : name);
                if (other != null) {
                    problems.add(tree, at, "the same token as entry \"" + other + "\"");
                }
            }
            if (problems.size() == before && name != null && hash != null) {
                tokens.add(new NamedToken(name, hash, profiles));
                if (entry.path("token").isTextual()) {
                    variables.addAll(Variables.names(entry.path("token").asText()));
                }
            }
        }
        if (problems.size() > 0) {
            throw new ManifestException(problems.sorted());
        }
        return new Entries(tokens, variables);
    }

    private static String name(LocatedTree tree, JsonNode entry, String at, Map<String, Integer> names, Problems problems) {
        JsonNode name = entry.get("name");
        if (name == null) {
            problems.add(tree, at, "a token entry needs a name");
            return null;
        }
        if (!name.isTextual() || !NAME.matcher(name.asText()).matches()) {
            problems.add(tree, at + "/name", "name must be 1 to 64 of letters, digits and _ . @ : -");
            return null;
        }
        int line = tree.line(at + "/name");
        Integer first = names.putIfAbsent(name.asText(), line);
        if (first != null) {
            problems.add(tree, at + "/name", "duplicate name \"" + name.asText() + "\" (first at line " + first + ")");
            return null;
        }
        return name.asText();
    }

    /** The entry's token's SHA-256 in hex, or null after a problem. */
    private static String hash(LocatedTree tree, JsonNode entry, String at, Map<String, String> env, Problems problems) {
        JsonNode token = entry.get("token");
        JsonNode sha256 = entry.get("sha256");
        if ((token == null) == (sha256 == null)) {
            problems.add(tree, at, "a token entry has exactly one of token and sha256");
            return null;
        }
        if (sha256 != null) {
            if (!sha256.isTextual() || !SHA256.matcher(sha256.asText()).matches()) {
                problems.add(tree, at + "/sha256", "sha256 must be 64 lowercase hex digits");
                return null;
            }
            return sha256.asText();
        }
        if (!token.isTextual()) {
            problems.add(tree, at + "/token", "token must be a string");
            return null;
        }
        String written = token.asText();
        String missing = Variables.missing(written, env);
        if (!missing.isEmpty()) {
            problems.add(tree, at + "/token", "${" + missing.replace(", ", "}, ${") + "} is not set");
            return null;
        }
        String value = Variables.expand(written, env).orElseThrow();
        if (value.length() < NamedToken.MIN_TOKEN_LENGTH || value.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            problems.add(tree, at + "/token", "a token is at least " + NamedToken.MIN_TOKEN_LENGTH
                    + " visible ASCII characters");
            return null;
        }
        return Digests.sha256Hex(value);
    }

    private static List<String> profiles(LocatedTree tree, JsonNode entry, String at, Predicate<String> knownProfile,
                                         Problems problems) {
        JsonNode profiles = entry.get("profiles");
        if (profiles == null) {
            return List.of();
        }
        if (!profiles.isArray()) {
            problems.add(tree, at + "/profiles", "profiles is a list of profile names");
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < profiles.size(); i++) {
            JsonNode profile = profiles.get(i);
            if (!profile.isTextual()) {
                problems.add(tree, at + "/profiles/" + i, "a profile is named by a string");
            } else if (!profile.asText().equals("all") && !knownProfile.test(profile.asText())) {
                problems.add(tree, at + "/profiles/" + i, "profile \"" + profile.asText() + "\" is not defined by the policy");
            } else if (!out.contains(profile.asText())) {
                out.add(profile.asText());
            }
        }
        return out;
    }
}
