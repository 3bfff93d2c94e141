/** The implementation of meta-module: the session loop, line framing and writing. Not a public API. */
package org.metaruntime.module.internal;
