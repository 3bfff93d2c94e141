/**
 * The durable event log: {@link org.metaruntime.eventlog.EventLogs} opens the embedded SQLite log or a JDBC
 * (PostgreSQL) log, {@link org.metaruntime.eventlog.MetadataStores} the durable projection metadata store.
 * Both implement interfaces of {@code meta-events} ({@code EventLog}, {@code PersistentMetadataStore}).
 */
package org.metaruntime.eventlog;
