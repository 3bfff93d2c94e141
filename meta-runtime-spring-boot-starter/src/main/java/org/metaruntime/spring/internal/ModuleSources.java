package org.metaruntime.spring.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.spring.MetaRuntimeProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Gathers the modules of every source, in discovery order: modules declared in properties (declaration order), then
 * manifest pods (folders in order, files by name), then Claude Desktop config entries (file order). An id declared
 * twice is an error. Stateless.
 */
public final class ModuleSources {

    private static final Pattern MODULE_FIELD = Pattern.compile("modules\\[(\\d+)]");

    private ModuleSources() {
    }

    /**
     * One module as a source declares it.
     *
     * @param config   the runtime's configuration of it, which declares the protocol it speaks
     * @param declared what the starter keeps of it
     */
    public record Entry(ModuleConfig config, DeclaredModules.Declared declared) {
        public Entry {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(declared, "declared");
        }
    }

    /**
     * The modules {@code properties} declare, from every source.
     *
     * @throws InvalidConfigurationPropertyValueException naming the property of a module's configuration error
     * @throws org.metaruntime.gateway.ManifestException  with the {@code file:line} problems of invalid manifests or
     *                                                    an unreadable Claude Desktop config
     */
    public static DeclaredModules declare(MetaRuntimeProperties properties) {
        List<Entry> entries = new ArrayList<>(PropertyModules.read(properties.getModules()));
        entries.addAll(ManifestModules.read(properties.getManifests(), properties.getClaudeConfig()));
        Map<String, Entry> byId = new LinkedHashMap<>();
        for (Entry entry : entries) {
            Entry earlier = byId.putIfAbsent(entry.declared().id(), entry);
            if (earlier != null) {
                throw new InvalidConfigurationPropertyValueException(PropertyModules.PREFIX + entry.declared().id(),
                        entry.declared().source(), "module id '" + entry.declared().id() + "' is declared twice: in "
                        + earlier.declared().source() + " and in " + entry.declared().source());
            }
        }
        MetaConfig.Builder config = MetaConfig.builder();
        byId.values().forEach(entry -> config.module(entry.config()));
        config.discover(byId.keySet().toArray(String[]::new));
        List<String> ids = List.copyOf(byId.keySet());
        return new DeclaredModules(validated(config.build(), ids), byId.values().stream().map(Entry::declared).toList());
    }

    /** {@code config} once valid; its error names the module's property ({@code modules[i]} is module {@code ids[i]}). */
    private static MetaConfig validated(MetaConfig config, List<String> ids) {
        try {
            return config.validate();
        } catch (ConfigException e) {
            Matcher field = MODULE_FIELD.matcher(e.field());
            String property = field.lookingAt() && Integer.parseInt(field.group(1)) < ids.size()
                    ? PropertyModules.PREFIX + ids.get(Integer.parseInt(field.group(1))) + e.field().substring(field.end())
                    : "meta.runtime." + e.field();
            throw new InvalidConfigurationPropertyValueException(property, null, e.getMessage());
        }
    }
}
