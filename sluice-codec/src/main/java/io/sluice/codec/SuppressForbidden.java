package io.sluice.codec;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exempts a class, method, constructor or field from the build's forbidden-apis check (config/forbidden-apis and the
 * parent pom; the plugin matches any annotation of this simple name). Say why in {@link #reason()}: the exemption is
 * for a deliberate use, such as {@code sun.misc.Unsafe} on a measured hot path or {@code System.exit} in the CLI's
 * main, never for a default charset, locale or time zone that can be named instead. Lives in the lowest module so
 * every module can use it; it has no run-time effect.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface SuppressForbidden {

    /** Why the forbidden API is the right one here. */
    String reason();
}
