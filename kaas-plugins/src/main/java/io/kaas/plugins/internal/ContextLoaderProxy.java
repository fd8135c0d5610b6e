package io.kaas.plugins.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A dynamic proxy for an SPI interface that sets the plugin's context class loader around every call
 * and rethrows what the plugin threw, unwrapped. {@code equals} is identity on the proxy.
 */
final class ContextLoaderProxy implements InvocationHandler {
    private final Object target;
    private final ClassLoader loader;

    private ContextLoaderProxy(Object target, ClassLoader loader) {
        this.target = target;
        this.loader = loader;
    }

    /** {@code target} seen through {@code type}, every call made under {@code loader}. */
    static <T> T wrap(Class<T> type, T target, ClassLoader loader) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new ContextLoaderProxy(target, loader)));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                default:
                    return target.toString();
            }
        }
        try (LoaderSwap ignored = LoaderSwap.to(loader)) {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
