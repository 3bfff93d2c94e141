/** JMH benchmarks of the event store, ordering and merge, and the store's memory check. */
package org.metaruntime.benchmarks.events;
