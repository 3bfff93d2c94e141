/**
 * The launcher: a small JVM that starts the runtime's children for this one once it holds many descriptors, so that
 * a spawn costs the same among a thousand live children as in an empty JVM. {@link
 * org.metaruntime.supervisor.internal.spawn.SharedLauncher} decides and owns it; the rest is its protocol and its
 * two sides. Not covered by compatibility.
 */
package org.metaruntime.supervisor.internal.spawn;
