/** Implementation of meta-core; not covered by compatibility. */
package org.metaruntime.core.internal;
