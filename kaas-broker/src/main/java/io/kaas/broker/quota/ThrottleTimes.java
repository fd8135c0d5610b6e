package io.kaas.broker.quota;

import io.kaas.wire.protocol.ApiMessage;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Raises a response's {@code throttle_time_ms}, for every response message that has the field. */
final class ThrottleTimes {
    private static final ClassValue<MethodHandle[]> ACCESSORS = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            try {
                return new MethodHandle[] {
                    lookup.findVirtual(type, "throttleTimeMs", MethodType.methodType(int.class)),
                    lookup.findVirtual(type, "setThrottleTimeMs", MethodType.methodType(type, int.class))};
            } catch (ReflectiveOperationException e) {
                return new MethodHandle[0];
            }
        }
    };

    private ThrottleTimes() {
    }

    /** The response's throttle time, 0 if it has no such field. */
    static int current(ApiMessage response) {
        MethodHandle[] handles = ACCESSORS.get(response.getClass());
        if (handles.length == 0) {
            return 0;
        }
        try {
            return (int) handles[0].invoke(response);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read throttle_time_ms of " + response.getClass().getSimpleName(), e);
        }
    }

    /** Sets the response's throttle time to {@code ms} unless it already says more; false if it has no such field. */
    static boolean raise(ApiMessage response, long ms) {
        MethodHandle[] handles = ACCESSORS.get(response.getClass());
        if (handles.length == 0) {
            return false;
        }
        int value = (int) Math.min(Integer.MAX_VALUE, ms);
        try {
            if ((int) handles[0].invoke(response) < value) {
                handles[1].invoke(response, value);
            }
            return true;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot set throttle_time_ms on " + response.getClass().getSimpleName(), e);
        }
    }
}
