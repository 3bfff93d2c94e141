/** The provider's schema mapping and tool executor (not covered by compatibility). */
package org.metaruntime.langchain4j.internal;
