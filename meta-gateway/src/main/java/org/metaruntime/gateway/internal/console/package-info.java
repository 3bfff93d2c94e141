/** The operator console: its JSON endpoints under {@code /console/api/} and the static page at {@code /console}. */
package org.metaruntime.gateway.internal.console;
