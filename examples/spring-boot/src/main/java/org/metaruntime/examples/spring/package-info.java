/** A runnable Spring Boot application on the meta-runtime starter. */
package org.metaruntime.examples.spring;
