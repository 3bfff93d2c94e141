/** The scale harness: hundreds to thousands of real modules in one runtime, and what each one costs. */
package org.metaruntime.benchmarks.scale;
