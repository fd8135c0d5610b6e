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
 * One plugin's class loader, isolated as Trino isolates its plugins: its parent is the JDK's platform
 * class loader, not the broker's, so the plugin sees the JDK, its own jars ({@code lib/*.jar}, or the
 * jar itself), the plugins it declares as dependencies, and from the broker only the packages the host
 * shares with every plugin: the SPI ({@code io.kaas.api.}) and the logging API ({@code org.slf4j.}).
 * Those always come from the host, whatever the plugin bundles, so a plugin that packs a copy of
 * {@code kaas-api} by mistake still implements the host's {@code StorageEngineProvider}, not a
 * look-alike the host cannot cast. Anything else of the host (Netty, Jackson, PF4J, the broker itself)
 * is not there: a plugin that uses a library bundles it, and links against its own copy.
 *
 * <p>Resources follow the classes: under {@code io/kaas/api/} and {@code org/slf4j/} they are the
 * host's; every other resource, {@code META-INF/services/*} included, is the plugin's own (then its
 * dependencies', then the JDK's), never the broker's.
 */
final class IsolatedPluginClassLoader extends PluginClassLoader {
    /** Class-name prefixes always loaded from the host: the SPI, and the logging API it allows. */
    static final List<String> HOST_PACKAGES = List.of("io.kaas.api.", "org.slf4j.");
    /** The same as resource-path prefixes. */
    private static final List<String> HOST_RESOURCES = HOST_PACKAGES.stream()
            .map(p -> p.replace('.', '/'))
            .toList();

    static {
        registerAsParallelCapable();
    }

    /** The broker's class loader, asked for {@link #HOST_PACKAGES} only. */
    private final ClassLoader host;

    IsolatedPluginClassLoader(PluginManager manager, PluginDescriptor descriptor, ClassLoader host) {
        super(manager, descriptor, ClassLoader.getPlatformClassLoader(), ClassLoadingStrategy.PDA);
        this.host = host;
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

    /**
     * The host's class for {@link #HOST_PACKAGES}; otherwise PF4J's order over this loader's parent,
     * the platform class loader: the plugin's own jars, its plugin dependencies, then the JDK. PF4J
     * sends {@code org.pf4j.} names to the parent, where they do not exist: a plugin needs nothing of PF4J.
     */
    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        if (isHostClass(name)) {
            return host.loadClass(name);
        }
        return super.loadClass(name);
    }

    @Override
    public URL getResource(String name) {
        return isHostResource(name) ? host.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isHostResource(name) ? host.getResources(name) : super.getResources(name);
    }
}
