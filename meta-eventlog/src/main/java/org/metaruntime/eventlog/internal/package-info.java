/** Implementation of the event log; not part of the API. */
package org.metaruntime.eventlog.internal;
