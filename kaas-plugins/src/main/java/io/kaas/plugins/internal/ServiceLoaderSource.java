package io.kaas.plugins.internal;

import io.kaas.api.plugin.BackendProvider;
import io.kaas.plugins.BackendSource;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Built-in backends: {@link ServiceLoader} over a module layer (named modules, {@code provides}) and over
 * a class loader (which also reads {@code META-INF/services} on the class path). A provider class found
 * both ways is offered once.
 */
public final class ServiceLoaderSource implements BackendSource {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceLoaderSource.class);
    /** Stops a loader that keeps failing from looping forever. */
    private static final int MAX_ERRORS = 100;

    private final ModuleLayer layer;
    private final ClassLoader classLoader;

    public ServiceLoaderSource(ModuleLayer layer, ClassLoader classLoader) {
        this.layer = layer;
        this.classLoader = classLoader;
    }

    @Override
    public <P extends BackendProvider> List<Offer<P>> find(Class<P> kind) {
        List<Offer<P>> offers = new ArrayList<>();
        Set<Class<?>> seen = new HashSet<>();
        collect(ServiceLoader.load(layer, kind), kind, seen, offers);
        collect(ServiceLoader.load(kind, classLoader), kind, seen, offers);
        return offers;
    }

    private static <P extends BackendProvider> void collect(ServiceLoader<P> loader, Class<P> kind,
                                                            Set<Class<?>> seen, List<Offer<P>> offers) {
        Iterator<P> it = loader.iterator();
        int errors = 0;
        while (errors < MAX_ERRORS) {
            try {
                if (!it.hasNext()) {
                    return;
                }
                P provider = it.next();
                if (seen.add(provider.getClass())) {
                    offers.add(new Offer<>(provider, origin(provider.getClass())));
                }
            } catch (ServiceConfigurationError e) {
                errors++;
                LOG.atError().setMessage("Skipping a {} that cannot be loaded: {}")
                        .addArgument(kind.getSimpleName()).addArgument(e.getMessage())
                        .addKeyValue("kind", kind.getName()).setCause(e).log();
            }
        }
    }

    /** The module name of a named module, else the location of the jar or directory the class came from. */
    public static String origin(Class<?> type) {
        Module module = type.getModule();
        if (module.isNamed()) {
            return module.getName();
        }
        CodeSource source = type.getProtectionDomain().getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location == null) {
            return "class path";
        }
        try {
            return "file".equals(location.getProtocol()) ? Path.of(location.toURI()).toString() : location.toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return location.toString();
        }
    }
}
