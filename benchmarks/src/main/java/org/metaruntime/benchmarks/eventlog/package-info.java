/** The event log harness: append throughput with group commit and filtered queries over a million rows. */
package org.metaruntime.benchmarks.eventlog;
