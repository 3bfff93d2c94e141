/** The starter's implementation: not an API, it may change in any release. */
package org.metaruntime.spring.internal;
