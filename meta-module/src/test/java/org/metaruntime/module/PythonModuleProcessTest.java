package org.metaruntime.module;

import java.util.Map;

/** {@code meta_module.py} (Python, standard library only) under {@code PYTHONIOENCODING=latin-1}. */
class PythonModuleProcessTest extends ModuleProcessContract {

    @Override
    ChildModule start() throws Exception {
        return ChildModule.python(Map.of("PYTHONIOENCODING", "latin-1", "SAMPLE_PARTIES", "64"));
    }
}
