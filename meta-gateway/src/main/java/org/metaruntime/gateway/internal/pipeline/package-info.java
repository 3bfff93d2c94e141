/** The call pipeline: the stages every {@code tools/call} passes, from a client or from a pod. */
package org.metaruntime.gateway.internal.pipeline;
