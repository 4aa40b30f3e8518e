package io.sluice.broker.network;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Run in a JVM of its own by {@link EagerNettyClassesTest}: prints, for each of {@link EagerNettyClasses#CLASSES},
 * whether its static initializer has run, before and after {@link EagerNettyClasses#initialize()}
 * ({@code before <name> <true|false>}, then {@code after ...}). Naming the classes loads them without initializing
 * them.
 *
 * <p>Single-threaded; a main program.
 */
public final class EagerNettyClassesProbe {
    private EagerNettyClassesProbe() {}

    public static void main(String[] args) throws Exception {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        Method shouldBeInitialized = unsafe.getClass().getMethod("shouldBeInitialized", Class.class);
        for (Class<?> type : EagerNettyClasses.CLASSES) {
            System.out.println("before " + type.getName() + " " + !(boolean) shouldBeInitialized.invoke(unsafe, type));
        }
        EagerNettyClasses.initialize();
        for (Class<?> type : EagerNettyClasses.CLASSES) {
            System.out.println("after " + type.getName() + " " + !(boolean) shouldBeInitialized.invoke(unsafe, type));
        }
    }
}
