package io.kaas.cluster.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kaas.api.cluster.ClusterStoreContext;
import io.kaas.api.cluster.LiveBroker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pause case: a broker's process frozen (SIGSTOP) for longer than its session, then resumed. While it is frozen
 * the server expires its session and another broker sees its registration end; when it wakes up its lease is over at
 * once (nothing it acknowledges could be acknowledged), and it comes back only under a new session with a new broker
 * epoch.
 */
@Timeout(120)
@EnabledOnOs({OS.LINUX, OS.MAC})
class ZooKeeperPauseTest {
    @TempDir
    Path dataDir;

    private static void signal(long pid, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    /** The reports whose lease was looked at after {@code woken} (wall clock). */
    private static List<String> awake(List<String> lines, long woken) {
        return lines.stream().filter(l -> Long.parseLong(l.substring(l.lastIndexOf("at=") + 3)) >= woken).toList();
    }

    @Test
    void aBrokerFrozenPastItsSessionHoldsNoLeaseWhenItWakesAndReturnsUnderANewBrokerEpoch() throws Exception {
        String connect = TestZooKeeper.newChroot();
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LeaseReportingMain.class.getName(), connect, "5")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.startsWith("lease=")) { // the child's log lines go to stdout too
                        lines.add(line);
                    }
                }
            } catch (Exception e) {
                // the child was killed
            }
        });
        reader.setDaemon(true);
        reader.start();
        try (ZooKeeperClusterStore observer = ZooKeeperClusterStore.open(new ClusterStoreContext(dataDir,
                TestZooKeeper.config(connect), 1))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.liveBrokers().containsKey(5)
                    && lines.stream().anyMatch(l -> l.startsWith("lease=true state=CONNECTED")));
            LiveBroker before = observer.liveBrokers().get(5);

            signal(child.pid(), "STOP");
            await().atMost(Duration.ofSeconds(20)).until(() -> !observer.liveBrokers().containsKey(5));
            Thread.sleep(TestZooKeeper.SESSION_TIMEOUT_MS);
            long woken = System.currentTimeMillis();
            signal(child.pid(), "CONT");

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(observer.liveBrokers()).containsKey(5);
                assertThat(observer.liveBrokers().get(5).brokerEpoch()).isGreaterThan(before.brokerEpoch());
            });
            long newEpoch = observer.liveBrokers().get(5).brokerEpoch();
            await().atMost(Duration.ofSeconds(30)).until(() -> awake(lines, woken).stream()
                    .anyMatch(l -> l.startsWith("lease=true")));
            // a line looked at before the freeze may be printed after it: only what was looked at after waking counts
            List<String> after = awake(lines, woken);
            assertThat(after.get(0)).as("the first look at the lease after waking up").startsWith("lease=false");
            String firstValid = after.stream().filter(l -> l.startsWith("lease=true")).findFirst().orElseThrow();
            assertThat(firstValid).as("the first valid lease after waking is under the new registration")
                    .startsWith("lease=true state=CONNECTED epoch=" + newEpoch + " ");
            assertThat(after).as("no valid lease under the old registration after waking")
                    .noneMatch(l -> l.startsWith("lease=true") && l.contains(" epoch=" + before.brokerEpoch() + " "));
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
