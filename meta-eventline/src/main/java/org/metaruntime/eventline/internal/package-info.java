/**
 * Internals of the event-line boundary: the first-line listener. Not covered by compatibility.
 */
package org.metaruntime.eventline.internal;
