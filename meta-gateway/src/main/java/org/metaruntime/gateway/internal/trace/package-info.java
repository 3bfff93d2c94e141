/** The spans of the gateway's calls (W3C trace context in, {@code _meta.traceparent} out, OTLP export). */
package org.metaruntime.gateway.internal.trace;
