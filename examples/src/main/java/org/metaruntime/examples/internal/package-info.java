/** Console formatting for the demo; not part of any API. */
package org.metaruntime.examples.internal;
