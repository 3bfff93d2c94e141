/**
 * The event-line boundary: a module's process writes one JSON event as its first stdout line.
 *
 * <p>{@link org.metaruntime.eventline.EventLineRunner} runs a module once ({@code runOnce}, the routed
 * call) or starts it and keeps it ({@code startAttempt}, one attempt of the startup state machine). Every
 * failure is an {@link org.metaruntime.eventline.EventLineException} carrying an
 * {@link org.metaruntime.eventline.EventLineError}: {@code Process(ProcessBoundaryError)} or
 * {@code Normalize(NormalizationError)}. See {@code docs/eventline.md} for the protocol a module follows.
 */
package org.metaruntime.eventline;
