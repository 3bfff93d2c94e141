package org.metaruntime.test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.metaruntime.core.InProcessModule;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.test.internal.Manifests;
import org.metaruntime.test.internal.ModuleSources;
import org.metaruntime.test.internal.ProcessLeakCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JUnit Jupiter extension behind {@link MetaRuntimeTest}: one started {@code UnifiedRuntime} per test.
 *
 * <ul>
 *   <li><b>Start.</b> Before the test's {@code @BeforeEach} methods, the runtime is built from the test instance's
 *       {@link ModuleSource}s and the {@link MetaRuntimeTest#manifests()} folders, with the in-process fakes
 *       registered, and started. A runtime that fails to start (an invalid configuration) fails the test.</li>
 *   <li><b>Injection.</b> {@link InjectRuntime} fields are set then; parameters of type {@code UnifiedRuntime} of
 *       {@code @Test}, {@code @BeforeEach} and {@code @AfterEach} methods get the same instance. With
 *       {@code manualTime = true} the runtime is built with a {@link ManualScheduler} and its {@link ManualClock},
 *       which parameters of those types receive; without it, asking for them is a
 *       {@link ParameterResolutionException}.</li>
 *   <li><b>Close and leak check.</b> After the test's {@code @AfterEach} methods the runtime is closed. Every module
 *       process it spawns has the environment variable {@value #RUN_VARIABLE} set to a value unique to the test.
 *       The runtime's module processes and their descendants are looked up once after start and again just before
 *       close; after close, so is every live process whose initial environment ({@code /proc/<pid>/environ}) holds
 *       the test's value. Any of them still alive 1 s after close (zombies and reused pids do not count) fails the
 *       test with an {@link AssertionError} saying {@code still alive} with each pid and command line, and is then
 *       killed (SIGKILL). Without {@code /proc} the environment lookup is skipped.</li>
 * </ul>
 *
 * <p>Thread-safe: tests running in parallel each have their own runtime.
 */
public final class MetaRuntimeExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    /** The environment variable every module process of a test's runtime carries, with a value unique to the test. */
    public static final String RUN_VARIABLE = "META_RUNTIME_TEST_RUN";

    /** How long the runtime's processes get to disappear after close. */
    static final Duration GONE_WITHIN = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(MetaRuntimeExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(MetaRuntimeExtension.class);
    private static final String KEY = "run";

    /** Made by JUnit, from {@link MetaRuntimeTest}'s {@code @ExtendWith}. */
    public MetaRuntimeExtension() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        MetaRuntimeTest settings = settings(context);
        Object instance = context.getRequiredTestInstance();
        ModuleSources sources = ModuleSources.of(context.getRequiredTestClass(), instance);
        for (String folder : settings.manifests()) {
            sources.add(Manifests.read(context.getRequiredTestClass(), folder));
        }
        String run = UUID.randomUUID().toString();
        ProcessLeakCheck leaks = new ProcessLeakCheck(RUN_VARIABLE, run);
        ManualScheduler scheduler = settings.manualTime() ? new ManualScheduler() : null;
        UnifiedRuntime.Builder builder = UnifiedRuntime.builder(sources.config())
                .options(RuntimeOptions.builder().processEnv(Map.of(RUN_VARIABLE, run)).build());
        if (scheduler != null) {
            builder.scheduler(scheduler).clock(scheduler.clock());
        }
        for (InProcessModule fake : sources.fakes()) {
            builder.fakeModule(fake);
        }
        TestRun testRun = new TestRun(leaks, scheduler);
        context.getStore(NAMESPACE).put(KEY, testRun);
        UnifiedRuntime runtime;
        try {
            runtime = builder.start();
        } catch (RuntimeException e) {
            List<ProcessHandle> left = leaks.survivors(GONE_WITHIN);
            ProcessLeakCheck.kill(left);
            throw e;
        }
        testRun.runtime = runtime;
        leaks.record(runtime);
        inject(context.getRequiredTestClass(), instance, runtime);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestRun run = context.getStore(NAMESPACE).remove(KEY, TestRun.class);
        if (run == null || run.runtime == null) {
            return;
        }
        RuntimeException failure = null;
        try {
            run.leaks.record(run.runtime);
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            run.runtime.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        List<ProcessHandle> left = run.leaks.survivors(GONE_WITHIN);
        if (!left.isEmpty()) {
            String described = left.stream().map(ProcessLeakCheck::describe).collect(Collectors.joining("; "));
            ProcessLeakCheck.kill(left);
            LOG.warn("{}: killed {} module process(es) left after the runtime closed: {}", context.getDisplayName(),
                    left.size(), described);
            AssertionError leak = new AssertionError(left.size() + " module process(es) still alive after the"
                    + " runtime closed (killed now): " + described);
            if (failure != null) {
                leak.addSuppressed(failure);
            }
            throw leak;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return parameter.getDeclaringExecutable() instanceof Method
                && (type == UnifiedRuntime.class || type == ManualScheduler.class || type == ManualClock.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        TestRun run = context.getStore(NAMESPACE).get(KEY, TestRun.class);
        if (run == null || run.runtime == null) {
            throw new ParameterResolutionException("no runtime for " + parameter.getDeclaringExecutable().getName()
                    + "(" + type.getSimpleName() + "): a @MetaRuntimeTest runtime is given to @Test, @BeforeEach and"
                    + " @AfterEach methods only");
        }
        if (type == UnifiedRuntime.class) {
            return run.runtime;
        }
        if (run.scheduler == null) {
            throw new ParameterResolutionException("a " + type.getSimpleName() + " parameter needs"
                    + " @MetaRuntimeTest(manualTime = true): without it the runtime runs on its own scheduler and"
                    + " the system clock");
        }
        return type == ManualScheduler.class ? run.scheduler : run.scheduler.clock();
    }

    private static MetaRuntimeTest settings(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), MetaRuntimeTest.class)
                .orElseThrow(() -> new ExtensionConfigurationException(context.getRequiredTestClass().getName()
                        + " uses MetaRuntimeExtension without @MetaRuntimeTest"));
    }

    private static void inject(Class<?> testClass, Object instance, UnifiedRuntime runtime) {
        for (Field field : AnnotationSupport.findAnnotatedFields(testClass, InjectRuntime.class, f -> true,
                HierarchyTraversalMode.TOP_DOWN)) {
            if (Modifier.isStatic(field.getModifiers()) || !field.getType().isAssignableFrom(UnifiedRuntime.class)) {
                throw new ExtensionConfigurationException("@InjectRuntime " + field.getDeclaringClass().getSimpleName()
                        + "." + field.getName() + " must be a non-static field of type UnifiedRuntime");
            }
            ReflectionSupport.makeAccessible(field);
            try {
                field.set(instance, runtime);
            } catch (IllegalAccessException e) {
                throw new ExtensionConfigurationException("@InjectRuntime " + field.getName() + " cannot be set", e);
            }
        }
    }

    /** One test's runtime, its leak check and its manual scheduler (null without manual time). */
    private static final class TestRun {
        final ProcessLeakCheck leaks;
        final ManualScheduler scheduler;
        volatile UnifiedRuntime runtime;

        TestRun(ProcessLeakCheck leaks, ManualScheduler scheduler) {
            this.leaks = leaks;
            this.scheduler = scheduler;
        }
    }
}
