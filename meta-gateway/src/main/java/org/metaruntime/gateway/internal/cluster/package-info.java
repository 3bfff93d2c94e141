/** Several gateway replicas sharing one PostgreSQL database: registry, shared sessions and forwarding. */
package org.metaruntime.gateway.internal.cluster;
