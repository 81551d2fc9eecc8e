package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.FlowMod;

/**
 * On an event-loop group its user shares (the network controller's loop), a batch applied on the
 * loop is written at once and acknowledged on the loop: no hand-off to an I/O thread or a callback
 * thread (docs/architecture.md, "Subscribe → flow-mods", step 6); the server leaves the group up.
 */
class SharedEventLoopTest {
  private static final Duration WAIT = Fixture.WAIT;

  @Test
  void aBatchAppliedOnTheSharedLoopIsWrittenAtOnceAndAcknowledgedOnIt() throws Exception {
    EventLoopGroup group = new NioEventLoopGroup(1);
    OpenFlowServer server =
        OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).eventLoop(group).build().start();
    SimulatedOpenFlowSwitch sim = SimulatedOpenFlowSwitch.builder().dpid(7).build();
    try {
      Poll.get(
          sim.connect(new InetSocketAddress("127.0.0.1", server.localAddress().getPort())), WAIT);
      Poll.until("switch 7 connected", WAIT, () -> server.switchHandle(7).isPresent());
      SwitchHandle sw = server.switchHandle(7).orElseThrow();
      EventLoop loop = group.next();
      CompletableFuture<Thread> ackedOn = new CompletableFuture<>();
      long modsBefore = server.metrics().modsSent();
      long writtenInTask =
          Poll.get(
              CompletableFuture.supplyAsync(
                  () -> {
                    sw.applyFlows(List.of(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 1))))
                        .thenRun(() -> ackedOn.complete(Thread.currentThread()));
                    return server.metrics().modsSent() - modsBefore; // before the task returns
                  },
                  loop),
              WAIT);

      assertThat(writtenInTask).as("mods written while the applying task ran").isEqualTo(1);
      Thread acked = Poll.get(ackedOn, WAIT);
      assertThat(acked.getName()).doesNotStartWith("nps-southbound-callback");
      assertThat(Poll.get(CompletableFuture.supplyAsync(Thread::currentThread, loop), WAIT))
          .as("acknowledged on the loop")
          .isSameAs(acked);
      assertThat(sim.flows()).containsExactly(AcknowledgedUpdatesTest.flow(1, 1));
    } finally {
      sim.close();
      server.close();
    }
    assertThat(group.isShuttingDown()).as("the user's group outlives the server").isFalse();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }
}
