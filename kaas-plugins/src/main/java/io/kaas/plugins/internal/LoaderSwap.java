package io.kaas.plugins.internal;

/**
 * Sets the current thread's context class loader for the length of a {@code try} block and puts the
 * previous one back when it ends, as Kafka's {@code LoaderSwap} does around every call into a plugin:
 * libraries inside a plugin that look up classes or resources through the context class loader
 * (ServiceLoader, JNI loaders, logging back-ends, JAXB…) then see the plugin's own jars.
 *
 * <pre>{@code
 * try (LoaderSwap ignored = LoaderSwap.to(pluginLoader)) {
 *     return delegate.append(batches, durable);
 * }
 * }</pre>
 */
public final class LoaderSwap implements AutoCloseable {
    private final Thread thread;
    private final ClassLoader saved;

    private LoaderSwap(Thread thread, ClassLoader saved) {
        this.thread = thread;
        this.saved = saved;
    }

    /** Makes {@code loader} the context class loader of the current thread until {@link #close()}. */
    public static LoaderSwap to(ClassLoader loader) {
        Thread thread = Thread.currentThread();
        ClassLoader saved = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        return new LoaderSwap(thread, saved);
    }

    /** Restores the context class loader that was set before {@link #to}. */
    @Override
    public void close() {
        thread.setContextClassLoader(saved);
    }
}
