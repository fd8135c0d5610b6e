package io.kaas.plugin.tck;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the TCK sets by hand (producer expiration cases), read by the engine from any thread. */
final class TckClock extends Clock {
    private volatile long millis;

    TckClock(long millis) {
        this.millis = millis;
    }

    void set(long millis) {
        this.millis = millis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
