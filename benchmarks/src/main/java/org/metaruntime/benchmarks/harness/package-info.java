/**
 * What the comparison harnesses share: command-line options, interleaved rounds with medians and per-round ratios,
 * the timing loops (warm sequential calls, calls kept in flight, timed runs), the node client runner and loopback
 * ports.
 */
package org.metaruntime.benchmarks.harness;
