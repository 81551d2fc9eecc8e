package org.netpubsub.edge.link;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/**
 * A {@link DatagramLink} that emulates a WAN per destination (experiments only; never on unless
 * {@code --emulate-wan} or {@code --emulate-link} is given): each datagram is dropped with the
 * link's loss probability or sent after its delay ± jitter by one timer thread (jitter may reorder,
 * as netem's does).
 */
final class EmulatedLink implements DatagramLink {
  private static final Logger LOG = Logger.getLogger(EmulatedLink.class.getName());

  private final DatagramSocket socket;
  private final WanEmulation emulation;
  private final SplittableRandom random; // guarded by this
  private final ScheduledExecutorService timer;
  final LongAdder dropped = new LongAdder();

  EmulatedLink(DatagramSocket socket, WanEmulation emulation) {
    this.socket = socket;
    this.emulation = emulation;
    this.random = new SplittableRandom(emulation.seed());
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-wan-emulation").factory());
  }

  @Override
  public void send(byte[] data, int off, int len, InetSocketAddress to) throws IOException {
    OptionalLong delay;
    synchronized (this) {
      delay = emulation.profileFor(to).sample(random);
    }
    if (delay.isEmpty()) {
      dropped.increment();
      return;
    }
    byte[] copy = Arrays.copyOfRange(data, off, off + len);
    timer.schedule(
        () -> {
          try {
            socket.send(new DatagramPacket(copy, copy.length, to));
          } catch (IOException e) {
            LOG.fine("emulated send to " + to + ": " + e);
          }
        },
        delay.getAsLong(),
        TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
