package io.kaas.engine.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.plugin.PluginConfig;
import io.kaas.api.plugin.PluginConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.CompressionType;

class RocksDbConfigTest {
    @Test
    void defaultsAreNoCompressionAndSixtyFourMegabyteCaches() {
        RocksDbConfig c = RocksDbConfig.from(PluginConfig.empty());
        assertThat(c).isEqualTo(new RocksDbConfig(64L << 20, "none", 64L << 20, 300_000L));
        assertThat(c.compressionType()).isEqualTo(CompressionType.NO_COMPRESSION);
    }

    @Test
    void readsEverySetting() {
        RocksDbConfig c = RocksDbConfig.from(PluginConfig.of(Map.of(
                "block.cache.bytes", "1024", "compression", "ZSTD", "write.buffer.bytes", "1048576",
                "retention.check.interval.ms", "1000")));
        assertThat(c).isEqualTo(new RocksDbConfig(1024, "zstd", 1 << 20, 1000));
        assertThat(c.compressionType()).isEqualTo(CompressionType.ZSTD_COMPRESSION);
    }

    @Test
    void aBadValueNamesItsKey() {
        assertThatThrownBy(() -> RocksDbConfig.from(PluginConfig.of(Map.of("compression", "brotli"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'compression'");
        assertThatThrownBy(() -> RocksDbConfig.from(PluginConfig.of(Map.of("block.cache.bytes", "-1"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'block.cache.bytes'");
        assertThatThrownBy(() -> RocksDbConfig.from(PluginConfig.of(Map.of("write.buffer.bytes", "lots"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'write.buffer.bytes'");
        assertThatThrownBy(() -> RocksDbConfig.from(PluginConfig.of(Map.of("retention.check.interval.ms", "0"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'retention.check.interval.ms'");
    }
}
