package io.kaas.api.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigTest {

    @Test
    void typedGettersParseAndDefault() {
        PluginConfig c = PluginConfig.of(Map.of("a", " 12 ", "b", "true", "c", "9000000000"));
        assertThat(c.getInt("a", 0)).isEqualTo(12);
        assertThat(c.getBoolean("b", false)).isTrue();
        assertThat(c.getLong("c", 0)).isEqualTo(9_000_000_000L);
        assertThat(c.getInt("missing", 5)).isEqualTo(5);
    }

    @Test
    void malformedValueNamesTheKey() {
        PluginConfig c = PluginConfig.of(Map.of("block.cache.bytes", "lots", "sync", "maybe"));
        assertThatThrownBy(() -> c.getLong("block.cache.bytes", 0))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("block.cache.bytes");
        assertThatThrownBy(() -> c.getBoolean("sync", false))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'sync'");
    }

    @Test
    void prefixSelectsAndStrips() {
        PluginConfig c = PluginConfig.of(Map.of("storage.rocksdb.cache", "1", "storage.segments.x", "2"));
        assertThat(c.withPrefix("storage.rocksdb.").asMap()).containsExactly(Map.entry("cache", "1"));
    }

    @Test
    void spiVersionCompatibility() {
        assertThat(SpiVersion.isCompatible(SpiVersion.MAJOR)).isTrue();
        assertThat(SpiVersion.isCompatible(SpiVersion.MAJOR + 1)).isFalse();
    }
}
