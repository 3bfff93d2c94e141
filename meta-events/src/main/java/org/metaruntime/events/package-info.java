/**
 * The event model of meta-runtime: {@link org.metaruntime.events.EventEnvelope envelopes} of
 * {@link org.metaruntime.events.UnifiedEvent agent and module events}, their JSON form
 * ({@link org.metaruntime.events.EventCodec}), normalisation of module output lines
 * ({@link org.metaruntime.events.EventNormalizer}), the envelope order ({@link org.metaruntime.events.Events}),
 * the bounded merged {@link org.metaruntime.events.EventStore} with lossy subscriptions, the agent
 * payload projection ({@link org.metaruntime.events.AgentEventProjection}), the durable
 * {@link org.metaruntime.events.EventLog} interface and its queries, and structural mob events
 * ({@link org.metaruntime.events.MobEventProjection}, {@link org.metaruntime.events.MobEventProjector},
 * {@link org.metaruntime.events.PersistentMetadataStore}).
 */
package org.metaruntime.events;
