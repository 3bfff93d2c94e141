package org.metaruntime.test.internal;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.metaruntime.core.InProcessModule;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.test.ModuleSource;

/**
 * What a test's {@link ModuleSource} members configure: one {@link MetaConfig} and the in-process modules. Members
 * are read superclass first; in a class, fields (in declaration order) before methods. Not thread-safe: one per test.
 */
public final class ModuleSources {

    private final List<ModuleConfig> modules = new ArrayList<>();
    private final List<String> discovered = new ArrayList<>();
    private final List<PreSpawnData> preSpawn = new ArrayList<>();
    private final Map<String, InProcessModule> fakes = new LinkedHashMap<>();
    private String namespace;

    private ModuleSources() {
    }

    /** Reads every {@link ModuleSource} member of {@code testClass} on {@code instance}. */
    public static ModuleSources of(Class<?> testClass, Object instance) {
        ModuleSources sources = new ModuleSources();
        for (Class<?> type : hierarchy(testClass)) {
            for (Field field : type.getDeclaredFields()) {
                if (AnnotationSupport.isAnnotated(field, ModuleSource.class)) {
                    sources.add(field, read(field, instance));
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                if (AnnotationSupport.isAnnotated(method, ModuleSource.class)) {
                    sources.add(method, invoke(method, instance));
                }
            }
        }
        return sources;
    }

    /** Adds the configuration read from {@code config} (e.g. a folder of manifests). */
    public void add(MetaConfig config) {
        addConfig(config);
    }

    /** The configuration: every source's modules, then a module for each fake that no source configures. */
    public MetaConfig config() {
        MetaConfig.Builder config = MetaConfig.builder().modules(modules);
        if (namespace != null) {
            config.namespace(namespace);
        }
        preSpawn.forEach(config::preSpawn);
        config.discover(discovered.toArray(String[]::new));
        List<String> configured = modules.stream().map(ModuleConfig::id).toList();
        for (InProcessModule fake : fakes.values()) {
            if (!configured.contains(fake.moduleId())) {
                ModuleConfig module = ModuleConfig.builder(fake.moduleId()).command("in-process:" + fake.moduleId())
                        .build();
                if (fake.kind() == ModuleBoundaryKind.MCP) {
                    config.mcp(module);
                } else {
                    config.module(module);
                }
                config.discover(fake.moduleId());
            }
        }
        return config.build();
    }

    /** The in-process modules, in the order they were read. */
    public List<InProcessModule> fakes() {
        return List.copyOf(fakes.values());
    }

    private void add(Member member, Object value) {
        if (value == null) {
            return;
        }
        if (value instanceof MetaConfig config) {
            addConfig(config);
        } else if (value instanceof ModuleConfig module) {
            modules.add(module);
            if (!module.isRemote() && !module.isBare()) {
                preSpawn.add(PreSpawnData.mcp(module.id()));
            }
            discovered.add(module.id());
        } else if (value instanceof InProcessModule fake) {
            fakes.put(fake.moduleId(), fake);
        } else if (value instanceof Collection<?> values) {
            values.forEach(each -> add(member, each));
        } else if (value.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(value); i++) {
                add(member, Array.get(value, i));
            }
        } else {
            throw new ExtensionConfigurationException("@ModuleSource " + name(member) + " is a "
                    + value.getClass().getName() + ": expected a MetaConfig, a ModuleConfig, an InProcessModule"
                    + " (FakeMcpModule, FakeEventLineModule), or a Collection or array of these");
        }
    }

    private void addConfig(MetaConfig config) {
        modules.addAll(config.modules());
        discovered.addAll(config.discovery().modules());
        preSpawn.addAll(config.preSpawn());
        if (namespace == null) {
            namespace = config.discovery().namespace();
        }
    }

    private static List<Class<?>> hierarchy(Class<?> testClass) {
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> type = testClass; type != null && type != Object.class; type = type.getSuperclass()) {
            types.add(0, type);
        }
        return types;
    }

    private static Object read(Field field, Object instance) {
        boolean isStatic = Modifier.isStatic(field.getModifiers());
        return ReflectionSupport.tryToReadFieldValue(field, isStatic ? null : instance)
                .getOrThrow(e -> new ExtensionConfigurationException("@ModuleSource " + name(field)
                        + " cannot be read: " + e, e));
    }

    private static Object invoke(Method method, Object instance) {
        if (method.getParameterCount() != 0) {
            throw new ExtensionConfigurationException("@ModuleSource " + name(method) + " must take no argument");
        }
        return ReflectionSupport.invokeMethod(method, Modifier.isStatic(method.getModifiers()) ? null : instance);
    }

    private static String name(Member member) {
        return member.getDeclaringClass().getSimpleName() + "." + member.getName()
                + (member instanceof Method ? "()" : "");
    }
}
