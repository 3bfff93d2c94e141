package org.metaruntime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The check of a sealed error interface's table of codes, which the interface's {@code code()} reads: every record
 * of the interface takes that {@code code()} and has a line in the table, or (a record that wraps another error and
 * reports that error's code) has a {@code code()} of its own and no line, never both and never neither; the codes are stable names (lower case, dotted, like {@code mcp.tool_not_found})
 * and no two records share one; a record with a {@code CODE} constant is paired with that constant. Each module
 * runs it on its own families:
 *
 * <pre>{@code
 * @Test
 * void everyRecordHasItsOwnCode() {
 *     ErrorCodeTable.assertWhole(ProcessBoundaryError.class, ProcessBoundaryErrorCodes.BY_RECORD);
 * }
 * }</pre>
 *
 * Stateless and thread-safe.
 */
public final class ErrorCodeTable {

    private static final String STABLE_CODE = "[a-z][a-z_]*(\\.[a-z][a-z_]*)+";

    private ErrorCodeTable() {
    }

    /**
     * Fails, naming each record at fault, unless {@code codes} gives every record of the sealed interface
     * {@code family} that takes {@code family}'s own {@code code()} a code of its own, as described above.
     */
    public static void assertWhole(Class<?> family, Map<? extends Class<?>, String> codes) {
        assertThat(family.isSealed()).as("%s is a sealed interface", family.getName()).isTrue();
        List<String> faults = new ArrayList<>();
        for (Class<?> record : family.getPermittedSubclasses()) {
            boolean inTable = codes.containsKey(record);
            boolean ownCode = codeOf(record).getDeclaringClass() != family;
            if (inTable == ownCode) {
                faults.add(record.getSimpleName() + (inTable ? " is in the table but has a code() of its own"
                        : " is not in the table but takes the code() that reads it"));
            }
        }
        for (Class<?> record : codes.keySet()) {
            if (record.getEnclosingClass() != family || !family.isAssignableFrom(record)) {
                faults.add(record.getName() + " is in the table but is not a record of " + family.getSimpleName());
            }
        }
        Set<String> seen = new HashSet<>();
        codes.forEach((record, code) -> {
            if (!code.matches(STABLE_CODE)) {
                faults.add(record.getSimpleName() + "'s code '" + code + "' is not a stable dotted lower-case name");
            }
            if (!seen.add(code)) {
                faults.add(record.getSimpleName() + "'s code '" + code + "' is another record's code too");
            }
            String constant = codeConstant(record);
            if (constant != null && !constant.equals(code)) {
                faults.add(record.getSimpleName() + " is paired with '" + code + "' but its CODE is '" + constant + "'");
            }
        });
        assertThat(faults).as("the table of codes of %s", family.getName()).isEmpty();
    }

    private static Method codeOf(Class<?> record) {
        try {
            return record.getMethod("code");
        } catch (NoSuchMethodException e) {
            throw new AssertionError(record.getName() + " has no code()", e);
        }
    }

    private static String codeConstant(Class<?> record) {
        try {
            Field field = record.getDeclaredField("CODE");
            return Modifier.isStatic(field.getModifiers()) ? (String) field.get(null) : null;
        } catch (NoSuchFieldException e) {
            return null;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(record.getName() + ".CODE cannot be read", e);
        }
    }
}
