/**
 * Extension points a host implements: {@link org.metaruntime.events.spi.MobEventSource}, the upstream
 * mob-event ledger the structural subscriber reads.
 */
package org.metaruntime.events.spi;
