/** Spawn-to-ready time and memory of the example bundles, one language each ({@link org.metaruntime.benchmarks.bundles.BundleStartup}). */
package org.metaruntime.benchmarks.bundles;
