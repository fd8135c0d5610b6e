package io.kaas.plugins.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import org.pf4j.CompoundPluginLoader;
import org.pf4j.DefaultPluginLoader;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ExtensionFinder;
import org.pf4j.JarPluginLoader;
import org.pf4j.ManifestPluginDescriptorFinder;
import org.pf4j.Plugin;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginFactory;
import org.pf4j.PluginLoader;
import org.pf4j.PluginManager;
import org.pf4j.PluginRuntimeException;
import org.pf4j.PropertiesPluginDescriptorFinder;
import org.pf4j.RuntimeMode;
import org.pf4j.ServiceProviderExtensionFinder;

/**
 * PF4J configured for kaas: always deployment mode; a plugin is a jar (descriptor in its manifest) or
 * a directory, usually an expanded zip, with {@code plugin.properties} and {@code lib/*.jar}; each
 * plugin gets an {@link IsolatedPluginClassLoader}, which sees of the host only the SPI and slf4j;
 * extensions are the classes listed in the plugin's own {@code META-INF/services} files
 * ({@link ServiceProviderExtensionFinder}), so a plugin needs nothing from PF4J (and cannot see it)
 * and depends on {@code kaas-api} alone. Its PF4J {@link Plugin} object, which kaas never calls into,
 * is a plain one made on the host's side ({@link #createPluginFactory()}). The host compares {@code Plugin-Requires} with
 * the SPI version itself (see {@link PluginDirectorySource}), so PF4J's system version stays unset.
 */
final class KaasPluginManager extends DefaultPluginManager {

    /** The loader every plugin class loader delegates the host's shared packages to (and nothing else). */
    private static final ClassLoader HOST = KaasPluginManager.class.getClassLoader();

    KaasPluginManager(Path pluginsRoot) {
        super(pluginsRoot);
    }

    @Override
    public RuntimeMode getRuntimeMode() {
        return RuntimeMode.DEPLOYMENT;
    }

    @Override
    protected PluginDescriptorFinder createPluginDescriptorFinder() {
        return new DescriptorFinder();
    }

    @Override
    protected ExtensionFinder createExtensionFinder() {
        ServiceProviderExtensionFinder finder = new ServiceProviderExtensionFinder(this);
        addPluginStateListener(finder);
        return finder;
    }

    /**
     * Every plugin's PF4J {@link Plugin} is a plain instance of the host's class: a kaas plugin names
     * no {@code Plugin-Class} (the host refuses one that does, see {@link PluginDirectorySource}), and
     * its class loader could not load {@code org.pf4j.Plugin} anyway.
     */
    @Override
    protected PluginFactory createPluginFactory() {
        return wrapper -> new Plugin();
    }

    /** True if {@code descriptor} names the default (no) PF4J plugin class. */
    static boolean hasNoPluginClass(PluginDescriptor descriptor) {
        String name = descriptor.getPluginClass();
        return name == null || name.isBlank() || name.equals(Plugin.class.getName());
    }

    @Override
    protected PluginLoader createPluginLoader() {
        return new CompoundPluginLoader()
                .add(new JarLoader(this))
                .add(new DirectoryLoader(this));
    }

    /** A jar plugin: the jar alone on its class path. */
    private static final class JarLoader extends JarPluginLoader {
        JarLoader(PluginManager manager) {
            super(manager);
        }

        @Override
        public ClassLoader loadPlugin(Path pluginPath, PluginDescriptor descriptor) {
            IsolatedPluginClassLoader loader = new IsolatedPluginClassLoader(pluginManager, descriptor, HOST);
            loader.addFile(pluginPath.toFile());
            return loader;
        }
    }

    /** A directory plugin: {@code classes/} and every jar in {@code lib/}. */
    private static final class DirectoryLoader extends DefaultPluginLoader {
        DirectoryLoader(PluginManager manager) {
            super(manager);
        }

        @Override
        protected PluginClassLoader createPluginClassLoader(Path pluginPath, PluginDescriptor descriptor) {
            return new IsolatedPluginClassLoader(pluginManager, descriptor, HOST);
        }
    }

    /**
     * A jar's manifest ({@code Plugin-Id}, {@code Plugin-Version}…), or a directory's
     * {@code plugin.properties} ({@code plugin.id}, {@code plugin.version}…), with messages that say
     * which of the two was expected and what is missing.
     */
    private static final class DescriptorFinder implements PluginDescriptorFinder {
        private final ManifestPluginDescriptorFinder manifest = new ManifestPluginDescriptorFinder();
        private final PropertiesPluginDescriptorFinder properties = new PropertiesPluginDescriptorFinder();

        @Override
        public boolean isApplicable(Path pluginPath) {
            return Files.isDirectory(pluginPath) || Files.isRegularFile(pluginPath);
        }

        @Override
        public PluginDescriptor find(Path pluginPath) {
            boolean directory = Files.isDirectory(pluginPath);
            if (directory && !Files.isRegularFile(pluginPath.resolve(PropertiesPluginDescriptorFinder.DEFAULT_PROPERTIES_FILE_NAME))) {
                throw new PluginRuntimeException("it has no " + PropertiesPluginDescriptorFinder.DEFAULT_PROPERTIES_FILE_NAME
                        + " (a plugin zip or folder holds plugin.properties with plugin.id and plugin.version, and lib/*.jar)");
            }
            PluginDescriptor descriptor;
            try {
                descriptor = directory ? properties.find(pluginPath) : manifest.find(pluginPath);
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new PluginRuntimeException((directory ? "cannot read its plugin.properties: " : "cannot read its manifest: ")
                        + cause);
            }
            String where = directory ? "plugin.properties" : "manifest";
            String id = directory ? "plugin.id" : "Plugin-Id";
            String version = directory ? "plugin.version" : "Plugin-Version";
            if (isBlank(descriptor.getPluginId())) {
                throw new PluginRuntimeException("its " + where + " has no " + id + " (a kaas plugin names " + id
                        + " and " + version + "; see docs/writing-a-plugin.md)");
            }
            if (isBlank(descriptor.getVersion())) {
                throw new PluginRuntimeException("its " + where + " has no " + version);
            }
            return descriptor;
        }

        private static boolean isBlank(String s) {
            return s == null || s.isBlank();
        }
    }
}
