/** Pinned tool definitions: definition hashes, pins (declared or taken on first use), drift and approval. */
package org.metaruntime.gateway.internal.pin;
