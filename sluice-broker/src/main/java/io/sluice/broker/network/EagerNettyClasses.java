package io.sluice.broker.network;

import io.netty.util.AbstractReferenceCounted;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.List;

/**
 * Initializes, when the network starts, the Netty classes a broker would otherwise first initialize in the middle of
 * its work. The JIT compiles the request and write paths assuming the class hierarchy it sees; a class initialized
 * later that adds a second implementation (a second reference-count updater, a second kind of event executor) makes
 * the JVM throw away every compiled method that relied on there being one, and compile them all again: on a broker
 * that had only taken produce requests, the first answer sent with sendfile (a consumer's fetch of a file range, a
 * partition move's chunk) discarded about 45 compiled methods and cost more than a second of compiler time
 * (-XX:+LogCompilation, "dependency_failed").
 *
 * <p>Stateless; thread-safe.
 */
final class EagerNettyClasses {
    /**
     * {@link AbstractReferenceCounted}: the base of every reference-counted object that is not a buffer
     * ({@link SegmentFileRegion}, {@link SegmentChunkedInput}); its updater is the second subclass of Netty's
     * reference-count updater next to the buffers' one. {@link ImmediateEventExecutor}: the executor of Netty's promise
     * combiners and channel-group futures, the second implementation of {@code EventExecutor.inEventLoop()} a broker
     * meets.
     */
    static final List<Class<?>> CLASSES = List.of(AbstractReferenceCounted.class, ImmediateEventExecutor.class);

    private EagerNettyClasses() {}

    /** Initializes each of {@link #CLASSES} (its static initializer runs now if it has not yet). */
    static void initialize() {
        for (Class<?> type : CLASSES) {
            try {
                Class.forName(type.getName(), true, type.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(type + " is on the class path but could not be initialized", e);
            }
        }
    }
}
