/**
 * The example storage engine plugin ({@code storage.engine=memory}): a small, complete in-memory
 * engine that shows a plugin author the whole SPI. Registered both ways: {@code provides} here and
 * {@code META-INF/services} for the plugin host, which loads plugins on the class path.
 */
module io.kaas.example.engine {
    requires io.kaas.api;
    requires org.slf4j; // provided by the host, as the SPI
    requires io.kaas.records; // the idempotent-producer window, packed into the plugin zip's lib/

    provides io.kaas.api.storage.StorageEngineProvider with io.kaas.example.engine.MemoryEngineProvider;
}
