/** Implementation of the event model: the shared JSON mapper, the envelope readers, the store. Not API. */
package org.metaruntime.events.internal;
