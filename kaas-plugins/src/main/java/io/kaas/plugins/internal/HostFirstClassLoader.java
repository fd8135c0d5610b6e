package io.kaas.plugins.internal;

import java.io.IOException;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import org.pf4j.ClassLoadingStrategy;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * One plugin's class loader: the plugin's own jars first (PF4J's plugin-first order), except for the
 * packages the host shares with every plugin, which always come from the host, whatever the plugin
 * bundles. A plugin that packs a copy of {@code kaas-api} by mistake therefore still implements the
 * host's {@code StorageEngineProvider}, not a look-alike the host cannot cast (Trino does the same
 * for its SPI packages).
 */
final class HostFirstClassLoader extends PluginClassLoader {
    /** Class-name prefixes always loaded from the host: the SPI, and the logging API it allows. */
    static final List<String> HOST_PACKAGES = List.of("io.kaas.api.", "org.slf4j.");
    /** The same as resource-path prefixes. */
    private static final List<String> HOST_RESOURCES = HOST_PACKAGES.stream()
            .map(p -> p.replace('.', '/'))
            .toList();

    static {
        registerAsParallelCapable();
    }

    HostFirstClassLoader(PluginManager manager, PluginDescriptor descriptor, ClassLoader host) {
        super(manager, descriptor, host, ClassLoadingStrategy.PDA);
    }

    /** True if the class {@code name} is always taken from the host. */
    static boolean isHostClass(String name) {
        for (String prefix : HOST_PACKAGES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHostResource(String name) {
        String path = name.startsWith("/") ? name.substring(1) : name;
        for (String prefix : HOST_RESOURCES) {
            if (path.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        if (isHostClass(name)) {
            return getParent().loadClass(name);
        }
        return super.loadClass(name);
    }

    @Override
    public URL getResource(String name) {
        return isHostResource(name) ? getParent().getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isHostResource(name) ? getParent().getResources(name) : super.getResources(name);
    }
}
