package io.kaas.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchSessionCacheTest {

    @Test
    void aFullCacheEvictsOnlyAStaleSessionOrOneWithFewerPartitions() {
        FetchSessionCache cache = new FetchSessionCache(2, 120_000);
        FetchSession small = cache.create(true, 0, 1_000);
        FetchSession big = cache.create(true, 0, 1_000);
        big.upsert(new FetchSession.Key(null, "t", 0), "t", 0, 1);
        big.upsert(new FetchSession.Key(null, "t", 1), "t", 0, 1);
        assertThat(small.id()).isNotEqualTo(big.id());

        assertThat(cache.create(true, 0, 2_000)).as("nothing stale, nothing smaller").isNull();

        FetchSession bigger = cache.create(true, 1, 2_000);
        assertThat(bigger).as("takes the place of the session with fewer partitions").isNotNull();
        assertThat(cache.get(small.id(), 2_000)).isNull();
        assertThat(cache.size()).isEqualTo(2);

        cache.get(bigger.id(), 200_000);
        FetchSession late = cache.create(true, 0, 200_000);
        assertThat(late).as("the least recently used session idle for 2 minutes makes room").isNotNull();
        assertThat(cache.get(big.id(), 200_000)).isNull();
        assertThat(cache.get(bigger.id(), 200_000)).isNotNull();
    }

    @Test
    void zeroSlotsMeansNoSessions() {
        assertThat(new FetchSessionCache(0, 1).create(false, 3, 0)).isNull();
    }
}
