package io.kaas.broker.fuzz;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The tries of every fuzz property: {@code -Dkaas.fuzz.tries=N} (default {@value #DEFAULT}, bounded for CI);
 * examples ({@code @Example}, one try) keep theirs.
 */
public final class FuzzTries implements AroundPropertyHook {

    static final int DEFAULT = 300;

    static int tries() {
        return Integer.getInteger("kaas.fuzz.tries", DEFAULT);
    }

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        if (!context.targetMethod().isAnnotationPresent(net.jqwik.api.Example.class)) {
            context.attributes().setTries(tries());
        }
        return property.execute();
    }
}
