/**
 * The runnable demo ({@link org.metaruntime.examples.Demo}) and the Java example module
 * ({@link org.metaruntime.examples.JavaToolsServer}). The Python and npm example modules live next to
 * this module's sources, under {@code examples/modules} and {@code examples/node}.
 */
package org.metaruntime.examples;
