package io.sluice.broker.quota;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Sets the {@code throttle_time_ms} field of any kafka-clients response message that has one (their generated classes
 * share no interface for it), through a method handle found once per class.
 *
 * <p>Stateless past the per-class cache; thread-safe.
 */
final class ThrottleTimeField {
    private static final ClassValue<MethodHandle> SETTERS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            try {
                return MethodHandles.publicLookup()
                        .findVirtual(type, "setThrottleTimeMs", MethodType.methodType(type, int.class));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                return null;
            }
        }
    };

    private ThrottleTimeField() {}

    /** Sets {@code throttleMs} into {@code response}; false when its API has no throttle time field. */
    static boolean set(ApiMessage response, int throttleMs) {
        MethodHandle setter = SETTERS.get(response.getClass());
        if (setter == null) {
            return false;
        }
        try {
            Object ignored = setter.invoke(response, throttleMs);
            return true;
        } catch (Throwable e) {
            throw new IllegalStateException(
                    "cannot set the throttle time of " + response.getClass().getSimpleName(), e);
        }
    }
}
