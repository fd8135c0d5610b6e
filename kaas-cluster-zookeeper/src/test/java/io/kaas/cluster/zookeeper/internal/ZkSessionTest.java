package io.kaas.cluster.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.SessionState;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

/** The lease arithmetic: how long an answered renewal lets the broker act, and what ends it. */
class ZkSessionTest {
    private static final long TIMEOUT_MS = 10_000;

    @Test
    void aRenewalHoldsNinetyPercentOfTheSessionTimeoutFromItsSendTime() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.connected();
        long sent = System.nanoTime();
        s.renewed(s.generation(), sent, TIMEOUT_MS);
        assertThat(s.leaseDeadlineNanos()).isEqualTo(sent + TimeUnit.MILLISECONDS.toNanos(9_000));
        assertThat(s.leaseValid()).isTrue();
    }

    @Test
    void aRenewalSentLongAgoHoldsNothingNowAsAfterAPause() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.connected();
        // a renewal sent before the broker was frozen for longer than the session, answered after it woke up
        s.renewed(s.generation(), System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS), TIMEOUT_MS);
        assertThat(s.state()).isEqualTo(SessionState.CONNECTED);
        assertThat(s.leaseValid()).isFalse();
    }

    @Test
    void theNegotiatedTimeoutIsTheOneThatCounts() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.connected();
        long sent = System.nanoTime();
        s.renewed(s.generation(), sent, 4_000);
        assertThat(s.sessionTimeoutMs()).isEqualTo(4_000);
        assertThat(s.leaseDeadlineNanos()).isEqualTo(sent + TimeUnit.MILLISECONDS.toNanos(3_600));
    }

    @Test
    void anEarlierRenewalNeverShortensTheLease() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.connected();
        long later = System.nanoTime();
        s.renewed(s.generation(), later, TIMEOUT_MS);
        s.renewed(s.generation(), later - 1_000_000, TIMEOUT_MS);
        assertThat(s.leaseDeadlineNanos()).isEqualTo(later + TimeUnit.MILLISECONDS.toNanos(9_000));
    }

    @Test
    void suspensionEndsTheLeaseAtOnceAndARenewalSentBeforeItDoesNotCount() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.connected();
        long gen = s.generation();
        long sent = System.nanoTime();
        s.end(SessionState.SUSPENDED);
        assertThat(s.leaseValid()).isFalse();
        s.renewed(gen, sent, TIMEOUT_MS);
        s.connected();
        assertThat(s.leaseValid()).as("the answer of a renewal sent before the suspension").isFalse();
        s.renewed(s.generation(), System.nanoTime(), TIMEOUT_MS);
        assertThat(s.leaseValid()).isTrue();
    }

    @Test
    void aClosedSessionStaysClosed() {
        ZkSession s = new ZkSession(TIMEOUT_MS);
        s.end(SessionState.CLOSED);
        s.connected();
        s.renewed(s.generation(), System.nanoTime(), TIMEOUT_MS);
        assertThat(s.state()).isEqualTo(SessionState.CLOSED);
        assertThat(s.leaseValid()).isFalse();
    }

    @Test
    void withSetAclNodesAreTheCreatorsAndWorldReadableExceptScramCredentials() {
        ZkClients.SecureAcls acls = new ZkClients.SecureAcls();
        assertThat(acls.getAclForPath("/topics/orders")).containsExactlyInAnyOrderElementsOf(
                concat(ZooDefs.Ids.CREATOR_ALL_ACL, ZooDefs.Ids.READ_ACL_UNSAFE));
        assertThat(acls.getDefaultAcl()).containsAll(ZooDefs.Ids.READ_ACL_UNSAFE);
        assertThat(acls.getAclForPath(ZkPaths.SCRAM + "/alice")).isEqualTo(ZooDefs.Ids.CREATOR_ALL_ACL);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
