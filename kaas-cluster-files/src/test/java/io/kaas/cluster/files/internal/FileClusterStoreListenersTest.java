package io.kaas.cluster.files.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.ClusterListener;
import io.kaas.api.cluster.ControllerListener;
import io.kaas.api.cluster.ControllerTerm;
import io.kaas.api.cluster.LiveBroker;
import io.kaas.api.cluster.PartitionLeader;
import io.kaas.api.cluster.RegisteredEndpoint;
import io.kaas.api.cluster.ScramCredentialRecord;
import io.kaas.api.cluster.ScramCredentialRef;
import io.kaas.api.cluster.SessionState;
import io.kaas.api.cluster.TopicAssignment;
import io.kaas.api.cluster.TopicPartitionRef;
import io.kaas.api.cluster.TopicRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Listeners are told of every change, after it shows in the getters, on one thread, one call at a time. */
@Timeout(60)
class FileClusterStoreListenersTest {
    @TempDir
    Path dir;

    /** Records each call with what the store's getters showed during it; checks calls never overlap. */
    private static final class Recorder implements ClusterListener {
        final BlockingQueue<String> calls = new LinkedBlockingQueue<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicInteger inside = new AtomicInteger();
        final List<String> overlaps = new ArrayList<>();
        volatile FileClusterStore store;

        private void record(String call) {
            if (inside.incrementAndGet() != 1) {
                overlaps.add(call);
            }
            threads.add(Thread.currentThread().getName());
            calls.add(call);
            inside.decrementAndGet();
        }

        @Override
        public void brokersChanged() {
            record("brokers " + store.liveBrokers().keySet());
        }

        @Override
        public void topicsChanged() {
            record("topics " + store.topics().stream().map(t -> t.name() + "/" + t.partitions()).sorted().toList()
                    + " " + store.topic("orders").map(t -> t.configs().toString()).orElse(""));
        }

        @Override
        public void assignmentsChanged() {
            record("assignments " + store.assignments().size());
        }

        @Override
        public void reassignmentsChanged() {
            record("reassignments " + store.reassignmentRequests());
        }

        @Override
        public void aclsChanged() {
            record("acls " + store.acls().size());
        }

        @Override
        public void scramCredentialsChanged() {
            record("scram " + store.scramCredentials().size());
        }

        @Override
        public void groupConfigsChanged() {
            record("group configs " + store.groupsWithConfigs());
        }

        @Override
        public void sessionChanged(SessionState state) {
            record("session " + state);
        }

        String next() throws InterruptedException {
            String call = calls.poll(10, TimeUnit.SECONDS);
            assertThat(call).as("a listener call").isNotNull();
            return call;
        }
    }

    @Test
    void everyChangeIsToldAfterItShowsOnOneStoreThread() throws Exception {
        Recorder recorder = new Recorder();
        Recorder removed = new Recorder();
        FileClusterStore store = FileClusterStore.open(dir, 1);
        recorder.store = store;
        removed.store = store;
        store.addListener(recorder);
        store.addListener(removed);
        store.removeListener(removed);
        BlockingQueue<String> terms = new LinkedBlockingQueue<>();
        try {
            LiveBroker broker = store.registerBroker(new BrokerRegistration(1,
                    List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1", 9092)), Optional.empty(),
                    "localhost", 1));
            assertThat(recorder.next()).isEqualTo("brokers [1]");
            store.electController(new ControllerListener() {
                @Override
                public void elected(ControllerTerm term) {
                    terms.add("elected " + Thread.currentThread().getName());
                }

                @Override
                public void resigned(ControllerTerm term) {
                    terms.add("resigned " + Thread.currentThread().getName());
                }
            });
            TopicRecord orders = new TopicRecord("orders", UUID.randomUUID(), 1, Map.of());
            store.createTopic(orders);
            assertThat(recorder.next()).isEqualTo("topics [orders/1] {}");
            store.updateTopicConfigs("orders", Map.of("retention.ms", "1000"));
            assertThat(recorder.next()).isEqualTo("topics [orders/1] {retention.ms=1000}");
            store.updatePartitionCount("orders", 2);
            assertThat(recorder.next()).isEqualTo("topics [orders/2] {retention.ms=1000}");
            store.updateAssignments(store.controller().orElseThrow(), List.of(new TopicAssignment(orders.topicId(),
                    "orders", List.of(PartitionLeader.none(0).handedTo(broker), PartitionLeader.none(0).handedTo(broker)),
                    TopicAssignment.NEW)));
            assertThat(recorder.next()).isEqualTo("assignments 1");
            store.alterReassignmentRequests(Map.of(new TopicPartitionRef("orders", 0), 1));
            assertThat(recorder.next()).isEqualTo("reassignments {orders-0=1}");
            AclBinding acl = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                    new AccessControlEntry(new KafkaPrincipal("User", "alice"), "*", Operation.READ,
                            AclPermissionType.ALLOW));
            store.addAcls(List.of(acl));
            assertThat(recorder.next()).isEqualTo("acls 1");
            store.removeAcls(List.of(acl));
            assertThat(recorder.next()).isEqualTo("acls 0");
            store.alterScramCredentials(List.of(new ScramCredentialRecord(new ScramCredentialRef("alice", "SCRAM-SHA-256"),
                    new byte[] {1}, new byte[] {2}, new byte[] {3}, 4096)), List.of());
            assertThat(recorder.next()).isEqualTo("scram 1");
            store.updateGroupConfigs("g", Map.of("consumer.session.timeout.ms", "45000"));
            assertThat(recorder.next()).isEqualTo("group configs [g]");
            store.deleteTopic("orders");
            assertThat(recorder.next()).isEqualTo("topics [] ");
            assertThat(recorder.next()).isEqualTo("assignments 0");
            assertThat(recorder.next()).isEqualTo("reassignments {}");
        } finally {
            store.close();
        }
        assertThat(recorder.next()).isEqualTo("brokers []");
        assertThat(recorder.next()).isEqualTo("session CLOSED");
        assertThat(terms).containsExactly("elected kaas-files-cluster-events", "resigned kaas-files-cluster-events");
        assertThat(recorder.calls).isEmpty();
        assertThat(recorder.threads).containsExactly("kaas-files-cluster-events");
        assertThat(recorder.overlaps).isEmpty();
        assertThat(removed.calls).isEmpty();
    }
}
