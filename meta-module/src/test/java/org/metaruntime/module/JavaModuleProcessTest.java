package org.metaruntime.module;

import java.util.List;

/** {@link ModuleServer} (Java) in a child JVM on {@code -Dfile.encoding=ISO-8859-1}. */
class JavaModuleProcessTest extends ModuleProcessContract {

    @Override
    ChildModule start() throws Exception {
        return ChildModule.java(List.of("-Dfile.encoding=ISO-8859-1", "-Dsun.stdout.encoding=ISO-8859-1",
                "-Dsun.stderr.encoding=ISO-8859-1", "-Dsample.parties=64"));
    }
}
