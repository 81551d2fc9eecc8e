package org.netpubsub.bench.controller;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.netpubsub.bench.stats.Latencies;
import org.netpubsub.controller.sim.ControllerMessageListener;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;

/**
 * One switch of a {@link Cbench} run: a {@link SimulatedOpenFlowSwitch} that neither records nor
 * applies what it receives, keeps up to {@code window} packet-ins outstanding while running, and
 * takes every packet-out (or, with {@link Cbench.Answer#ANY}, every flow-mod too) as the answer to
 * its oldest outstanding packet-in. Its state is guarded by its lock: responses arrive on its event
 * loop, start and stop come from the driver.
 */
final class EmulatedSwitch implements ControllerMessageListener {
  /** What every switch of a run adds to. */
  static final class Totals {
    final LongAdder responses = new LongAdder();
    final Latencies rtt = new Latencies();

    /** Set when the warm-up rounds end: round-trip times count from then on. */
    volatile boolean measuring;
  }

  private final int index;
  private final int window;
  private final boolean timeRoundTrips;
  private final Cbench.Answer answer;
  private final FrameSource frames;
  private final Totals totals;
  private final SimulatedOpenFlowSwitch sw;
  private final CompletableFuture<Void> featuresRequested = new CompletableFuture<>();
  private final CompletableFuture<Void> barrierRequested = new CompletableFuture<>();

  /** Send times of the outstanding packet-ins, oldest at {@code head} (a ring of the window). */
  private final long[] sentAt;

  private int head;
  private int outstanding;
  private long sent;
  private boolean running;
  private volatile RuntimeException failure;

  EmulatedSwitch(
      int index,
      int window,
      boolean timeRoundTrips,
      Cbench.Answer answer,
      FrameSource frames,
      Totals totals,
      EventLoopGroup group) {
    this.index = index;
    this.window = window;
    this.timeRoundTrips = timeRoundTrips;
    this.answer = answer;
    this.frames = frames;
    this.totals = totals;
    this.sentAt = new long[window];
    long[] ports = new long[Cbench.PORTS];
    for (int p = 0; p < ports.length; p++) {
      ports[p] = p + 1;
    }
    this.sw =
        SimulatedOpenFlowSwitch.builder()
            .dpid(index + 1L)
            .ports(ports)
            .eventLoopGroup(group)
            .messageListener(this)
            .recordReceived(false)
            .applyMods(false)
            .build();
  }

  long dpid() {
    return sw.dpid();
  }

  CompletableFuture<Void> connect(InetSocketAddress controller) {
    return sw.connect(controller);
  }

  /** Completes when the controller has sent its FEATURES_REQUEST (cbench's start signal). */
  CompletableFuture<Void> featuresRequested() {
    return featuresRequested;
  }

  /** Completes when the controller has sent its first BARRIER_REQUEST. */
  CompletableFuture<Void> barrierRequested() {
    return barrierRequested;
  }

  boolean isConnected() {
    return sw.isConnected();
  }

  /** Sends the first window of packet-ins. */
  synchronized void start() {
    running = true;
    fill();
  }

  /** Sends no more packet-ins and ignores later responses. */
  synchronized void stop() {
    running = false;
  }

  /** Packet-ins sent so far. */
  synchronized long sent() {
    return sent;
  }

  /** What made this switch stop sending early (its frame source threw), if anything. */
  RuntimeException failure() {
    return failure;
  }

  void close() {
    stop();
    sw.close();
  }

  @Override
  public void featuresRequest() {
    featuresRequested.complete(null);
  }

  @Override
  public void barrierRequest() {
    barrierRequested.complete(null);
  }

  @Override
  public void flowMod() {
    if (answer == Cbench.Answer.ANY) {
      response();
    }
  }

  @Override
  public void packetOut() {
    response();
  }

  private synchronized void response() {
    if (!running) {
      return;
    }
    if (outstanding > 0) {
      long at = sentAt[head];
      head = head + 1 == window ? 0 : head + 1;
      outstanding--;
      if (timeRoundTrips && totals.measuring) {
        totals.rtt.record(System.nanoTime() - at);
      }
    }
    totals.responses.increment();
    fill();
  }

  /** Tops the outstanding packet-ins up to the window (lock held). */
  private void fill() {
    while (running && outstanding < window) {
      byte[] frame;
      try {
        frame = frames.frame(index, sent);
      } catch (RuntimeException e) {
        failure = e;
        running = false;
        return;
      }
      long now = timeRoundTrips ? System.nanoTime() : 0;
      try {
        sw.sendPacketIn(inPort(frame), 0, 0, frame);
      } catch (IllegalStateException e) {
        running = false; // the connection closed: the run counts this switch as disconnected
        return;
      }
      int slot = head + outstanding;
      sentAt[slot >= window ? slot - window : slot] = now;
      outstanding++;
      sent++;
    }
  }

  /**
   * The port a frame enters by: 1 + its source MAC modulo {@link Cbench#PORTS}, so one host always
   * sits behind one port (as a learning switch expects); port 1 for frames too short to have one.
   */
  static long inPort(byte[] frame) {
    if (frame.length < 12) {
      return 1;
    }
    long mac = 0;
    for (int i = 6; i < 12; i++) {
      mac = mac << 8 | frame[i] & 0xff;
    }
    return 1 + mac % Cbench.PORTS;
  }
}
