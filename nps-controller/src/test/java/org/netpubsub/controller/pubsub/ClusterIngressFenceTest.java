package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.testing.ClusterProcess;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.network.openflow.FlowEntry;

/**
 * The cluster's ingress writer is fenced (docs/security.md): a writer paused past its ZooKeeper
 * session, after another process took the latch and wrote, writes nothing when it resumes. Real
 * ZooKeeper; each process has its own simulated switch ({@link ClusterProcess}), so what a process
 * wrote is what its switch holds.
 */
class ClusterIngressFenceTest {
  private static final int SESSION_MS = 4_000;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.remove(i).close();
    }
  }

  @Test
  void aWriterPausedPastItsSessionWritesNothingOnceAnotherTookOver() throws Exception {
    // a short tick: sessions of a few seconds are allowed
    TestingServer zk =
        keep(new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 250, -1), true));
    ClusterProcess a = process(zk.getConnectString(), "a");
    Wait.until("a writes the drops", Duration.ofSeconds(20), () -> a.drops().size() == 4);
    ClusterProcess b = process(zk.getConnectString(), "b");
    assertThat(b.ingress().writes()).isFalse();
    List<FlowEntry> before = a.drops();

    // a's writer pauses after its lease, before its write, until b took over and wrote
    CountDownLatch paused = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    AtomicLong pausedAt = new AtomicLong();
    a.ingress()
        .beforeWrite(
            () -> {
              if (paused.getCount() > 0) {
                pausedAt.set(System.nanoTime());
                paused.countDown();
                await(resume);
              }
            });
    b.service().advertise(OneSwitchNetwork.host(2).address().toString(), "price < 50000").get();
    b.ingress().sync(); // the tick: a reads the advertisement, then pauses
    assertThat(paused.await(20, TimeUnit.SECONDS)).isTrue();
    KillSession.kill(a.zk().getZookeeperClient().getZooKeeper()); // as if it expired
    Wait.until(
        "b took over and opened port 2 to the advertisement",
        Duration.ofSeconds(30),
        () -> b.ingress().writes() && !b.drops().isEmpty() && !sameSet(b.drops(), before));
    Wait.until(
        "a paused past its session timeout",
        Duration.ofSeconds(10),
        () -> System.nanoTime() - pausedAt.get() > TimeUnit.MILLISECONDS.toNanos(SESSION_MS));
    resume.countDown();

    Wait.until("a's write refused", Duration.ofSeconds(20), () -> a.ingress().fenced() >= 1);
    assertThat(a.ingress().writes()).isFalse();
    // what a's switch holds is still what a wrote before the pause: port 2 not opened by a
    assertThat(a.drops()).containsExactlyInAnyOrderElementsOf(before);
    assertThat(b.ingress().writes()).isTrue();
  }

  private ClusterProcess process(String connect, String member) throws Exception {
    return ClusterProcess.start(
        keep(ZooKeeperClients.started(connect, SESSION_MS)), member, QUOTES, open);
  }

  private static final Schema QUOTES =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .index(List.of("price"))
          .build();

  private static boolean sameSet(List<FlowEntry> x, List<FlowEntry> y) {
    return new java.util.HashSet<>(x).equals(new java.util.HashSet<>(y));
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private <T extends AutoCloseable> T keep(T t) {
    open.add(t);
    return t;
  }
}
