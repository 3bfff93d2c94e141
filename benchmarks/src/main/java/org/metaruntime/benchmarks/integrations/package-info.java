/** Tool calls through the host integrations against the same calls made directly on the runtime. */
package org.metaruntime.benchmarks.integrations;
