package org.metaruntime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The check that makes a module's {@code internal} packages really internal: no public or protected signature of
 * a type in an API package (any package under the module's root that has no {@code internal} segment) names a
 * type of an {@code internal} package, of this module or of any other, or a type a user cannot name (one that is
 * not public). A signature is a visible type's superclass and interfaces, its type parameters' bounds, and its
 * public and protected fields, constructors and methods (parameter, return and exception types, type arguments
 * included), those it inherits from a supertype that is not public among them (they are callable on the visible
 * type although their declaring class is hidden). Each module's tests run it on their own classes:
 *
 * <pre>{@code
 * @Test
 * void apiSignaturesNameNoInternalType() {
 *     ApiBoundary.assertNoInternalTypes(ModuleProcess.class);   // scans org.metaruntime.supervisor.**
 * }
 * }</pre>
 *
 * Stateless and thread-safe.
 */
public final class ApiBoundary {

    private ApiBoundary() {
    }

    /**
     * Fails, listing every offending signature, when a public or protected signature of a type in an API package
     * under {@code anchor}'s package names an internal type. The classes are those of the directory or jar
     * {@code anchor} was loaded from.
     */
    public static void assertNoInternalTypes(Class<?> anchor) {
        List<String> violations = violations(anchor, anchor.getPackageName());
        assertThat(violations).as("public or protected signatures of API packages under %s that name an internal"
                + " type", anchor.getPackageName()).isEmpty();
    }

    /**
     * Every public or protected signature of a type in an API package under {@code rootPackage} (in the classes
     * {@code anchor} was loaded from) that names an internal type, as {@code "Type.member: InternalType"}.
     * Also fails when no API type is found at all (a check that checks nothing).
     */
    public static List<String> violations(Class<?> anchor, String rootPackage) {
        List<Class<?>> types = typesUnder(anchor, rootPackage);
        List<String> violations = new ArrayList<>();
        int visible = 0;
        for (Class<?> type : types) {
            if (isInternal(type.getPackageName()) || !isVisible(type)) {
                continue;
            }
            visible++;
            check(type, rootPackage, violations);
        }
        assertThat(visible).as("API types under %s", rootPackage).isPositive();
        return violations;
    }

    private static void check(Class<?> type, String rootPackage, List<String> violations) {
        String owner = type.getName();
        // A supertype that is not public is ordinary (a package-private base class); what it passes on is checked.
        expect(owner + " extends", type.getGenericSuperclass(), violations, false);
        members(owner, type, false, violations);
        for (Class<?> hidden : hiddenSupertypes(type, rootPackage)) {
            members(owner + " (inherited from " + hidden.getName() + ")", hidden, true, violations);
        }
    }

    /**
     * The supertypes of {@code type} in API packages under {@code rootPackage} that a user cannot name: their public
     * members are still part of {@code type}'s API. Internal supertypes are reported by the
     * {@code extends}/{@code implements} check itself; other libraries' supertypes are theirs.
     */
    private static Set<Class<?>> hiddenSupertypes(Class<?> type, String rootPackage) {
        Set<Class<?>> hidden = new java.util.LinkedHashSet<>();
        java.util.Deque<Class<?>> todo = new java.util.ArrayDeque<>();
        todo.add(type);
        Set<Class<?>> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> next = todo.poll();
            if (!seen.add(next)) {
                continue;
            }
            List<Class<?>> supers = new ArrayList<>(List.of(next.getInterfaces()));
            if (next.getSuperclass() != null) {
                supers.add(next.getSuperclass());
            }
            for (Class<?> s : supers) {
                if (!s.getPackageName().startsWith(rootPackage) || isInternal(s.getPackageName())) {
                    continue;
                }
                if (!isVisible(s)) {
                    hidden.add(s);
                }
                todo.add(s);
            }
        }
        return hidden;
    }

    private static void members(String owner, Class<?> type, boolean inherited, List<String> violations) {
        for (Type iface : type.getGenericInterfaces()) {
            expect(owner + " implements", iface, violations, false);
        }
        if (!inherited) {
            for (TypeVariable<?> variable : type.getTypeParameters()) {
                expect(owner + "<" + variable.getName() + ">", variable, violations);
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (visible(field) && !field.isSynthetic()) {
                expect(owner + "." + field.getName(), field.getGenericType(), violations);
            }
        }
        for (Constructor<?> constructor : inherited ? new Constructor<?>[0] : type.getDeclaredConstructors()) {
            if (visible(constructor) && !constructor.isSynthetic()) {
                executable(owner + ".<init>", constructor, violations);
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method) && !method.isSynthetic() && !method.isBridge()) {
                executable(owner + "." + method.getName() + "()", method, violations);
                expect(owner + "." + method.getName() + "() returns", method.getGenericReturnType(), violations);
            }
        }
    }

    private static void executable(String where, Executable executable, List<String> violations) {
        for (Type parameter : executable.getGenericParameterTypes()) {
            expect(where + " parameter", parameter, violations);
        }
        for (Type thrown : executable.getGenericExceptionTypes()) {
            expect(where + " throws", thrown, violations);
        }
        for (TypeVariable<?> variable : executable.getTypeParameters()) {
            expect(where + " <" + variable.getName() + ">", variable, violations);
        }
    }

    private static void expect(String where, Type type, List<String> violations) {
        expect(where, type, violations, true);
    }

    private static void expect(String where, Type type, List<String> violations, boolean hiddenTypes) {
        Set<String> internal = new TreeSet<>();
        collectInternal(type, internal, new HashSet<>(), hiddenTypes);
        for (String name : internal) {
            violations.add(where + ": " + name);
        }
    }

    private static void collectInternal(Type type, Set<String> internal, Set<Type> seen, boolean hiddenTypes) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> c) {
            Class<?> component = c;
            while (component.isArray()) {
                component = component.getComponentType();
            }
            if (!component.isPrimitive() && isInternal(component.getPackageName())) {
                internal.add(component.getName());
            } else if (hiddenTypes && !component.isPrimitive() && !isVisible(component)) {
                internal.add(component.getName() + " (not public)");
            }
        } else if (type instanceof ParameterizedType p) {
            collectInternal(p.getRawType(), internal, seen, hiddenTypes);
            collectInternal(p.getOwnerType(), internal, seen, hiddenTypes);
            for (Type argument : p.getActualTypeArguments()) {
                collectInternal(argument, internal, seen, hiddenTypes);
            }
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                collectInternal(bound, internal, seen, hiddenTypes);
            }
            for (Type bound : w.getLowerBounds()) {
                collectInternal(bound, internal, seen, hiddenTypes);
            }
        } else if (type instanceof GenericArrayType a) {
            collectInternal(a.getGenericComponentType(), internal, seen, hiddenTypes);
        } else if (type instanceof TypeVariable<?> v) {
            for (Type bound : v.getBounds()) {
                collectInternal(bound, internal, seen, hiddenTypes);
            }
        }
    }

    private static boolean visible(Member member) {
        int modifiers = member.getModifiers();
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** A type a user can name: public (or protected) itself and inside every enclosing type. */
    private static boolean isVisible(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            int modifiers = c.getModifiers();
            if (!Modifier.isPublic(modifiers) && !Modifier.isProtected(modifiers)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isInternal(String packageName) {
        for (String segment : packageName.split("\\.")) {
            if (segment.equals("internal")) {
                return true;
            }
        }
        return false;
    }

    private static List<Class<?>> typesUnder(Class<?> anchor, String rootPackage) {
        Path location;
        try {
            location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        String prefix = rootPackage.replace('.', '/');
        List<Class<?>> types = new ArrayList<>();
        try {
            if (Files.isDirectory(location)) {
                collect(location, location.resolve(prefix), anchor.getClassLoader(), types);
            } else {
                try (FileSystem jar = FileSystems.newFileSystem(location, Map.of())) {
                    Path root = jar.getPath("/");
                    collect(root, root.resolve(prefix), anchor.getClassLoader(), types);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return types;
    }

    private static void collect(Path root, Path start, ClassLoader loader, List<Class<?>> types) throws IOException {
        if (!Files.isDirectory(start)) {
            return;
        }
        try (Stream<Path> files = Files.walk(start)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                if (name.endsWith("package-info") || name.endsWith("module-info")) {
                    continue;
                }
                try {
                    types.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IllegalStateException("cannot load " + name, e);
                }
            }
        }
    }
}
