package io.sluice.broker.move;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads and links, on a background thread once a broker serves, the classes that a broker's first partition move
 * would otherwise load in the middle of the move, in any of its roles (controller, source, target). They are listed in
 * {@value #RESOURCE}, made from the JVM's class-loading log of the two brokers of a fresh 1 GB move and the move
 * back (see that file's head). A fresh broker loaded about 190 named classes during its first move, on the two
 * cores the move itself needs; loaded beforehand, the first move of a fresh pair of brokers took 0.26-0.51 s less
 * (median 1.21 against 1.52 s over four rotated rounds of 1 GB; docs/benchmarks.md section 10).
 *
 * <p>Every class is loaded and linked (verified); Sluice's top-level classes are also initialized (their static
 * initializers run here). Nested classes and other libraries' classes are not: initializing a class here while a
 * request thread initializes another class of the same static-initializer cycle would deadlock both, and a nested
 * class is where such cycles live (an interface whose constant is an anonymous implementation of it, one with
 * default methods: {@code ChunkFaultHook}). The listed top-level Sluice classes' initializers form no cycle (their
 * superclasses and what their initializers touch, read with {@code javap -c}, 2026-12-07); an outer class's
 * initializer initializes the nested classes it needs itself. A name this JVM lacks (a JDK-internal class of
 * another JDK) is skipped.
 *
 * <p>Stateless; thread-safe.
 */
public final class MovePathClasses {
    private static final Logger LOG = LoggerFactory.getLogger(MovePathClasses.class);

    /** The list: one binary class name per line; blank lines and lines starting with {@code #} are skipped. */
    static final String RESOURCE = "move-path-classes.txt";

    private static final String SLUICE_PACKAGES = "io.sluice.";

    private MovePathClasses() {}

    /** What {@link #preload} did: how many classes it loaded and linked, and the names it could not load. */
    record Preloaded(int linked, List<String> missing) {}

    /** Starts a daemon thread that preloads the listed classes and ends; returns it. */
    public static Thread preloadInBackground() {
        Thread thread = new Thread(
                () -> {
                    long start = System.nanoTime();
                    try {
                        Preloaded done = preload(names(), MovePathClasses.class.getClassLoader());
                        LOG.debug(
                                "loaded the move path's {} classes in {} ms; not on this JVM: {}",
                                done.linked(),
                                (System.nanoTime() - start) / 1_000_000,
                                done.missing());
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("could not preload the move path's classes; a first move loads them itself", e);
                    }
                },
                "sluice-move-class-preload");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** The names listed in {@value #RESOURCE}, in its order. */
    static List<String> names() throws IOException {
        try (InputStream in = MovePathClasses.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is missing beside " + MovePathClasses.class.getName());
            }
            List<String> names = new ArrayList<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
            return names;
        }
    }

    /**
     * Loads each of {@code names} through {@code loader} and links it (asking a class for its constructors makes the
     * JVM link it first); initializes it too when it is a top-level Sluice class ({@link #initializes}).
     */
    static Preloaded preload(List<String> names, ClassLoader loader) {
        int linked = 0;
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            try {
                var unused = Class.forName(name, initializes(name), loader).getDeclaredConstructors(); // links it
                linked++;
            } catch (ClassNotFoundException | LinkageError | SecurityException e) {
                missing.add(name);
            }
        }
        return new Preloaded(linked, List.copyOf(missing));
    }

    /** Whether the preload initializes the class {@code name}: a top-level class of Sluice's own packages. */
    static boolean initializes(String name) {
        return name.startsWith(SLUICE_PACKAGES) && name.indexOf('$') < 0;
    }
}
