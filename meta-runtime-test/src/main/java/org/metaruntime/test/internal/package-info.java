/** The extension's inner workings (not covered by compatibility). */
package org.metaruntime.test.internal;
