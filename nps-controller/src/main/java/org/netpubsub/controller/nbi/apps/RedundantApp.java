package org.netpubsub.controller.nbi.apps;

import java.util.List;
import org.netpubsub.controller.nbi.AppContext;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;

/**
 * The EMD paper's "redundant" app: ten increments per event and nothing sent back. It stands for
 * the many apps a controller carries that care about other traffic than the packet at hand; by
 * default it subscribes to LLDP, which the forwarding measurements never send.
 *
 * <p>Ten increments cost a JVM next to nothing, while the same handler costs Ryu tens of
 * microseconds of interpreter and event dispatch; {@code busyNanos} adds that much CPU per event,
 * so measurements can show what skipping an uninterested app saves when it is not free.
 */
public final class RedundantApp implements ControllerApp {
  private final String name;
  private final List<NbiTopic> topics;
  private final long busyNanos;
  private long counter;

  public RedundantApp(String name) {
    this(name, List.of(NbiTopic.parse("eth_type=0x88cc")), 0);
  }

  public RedundantApp(String name, List<NbiTopic> topics, long busyNanos) {
    if (busyNanos < 0) {
      throw new IllegalArgumentException("busy time must not be negative: " + busyNanos);
    }
    this.name = name;
    this.topics = List.copyOf(topics);
    this.busyNanos = busyNanos;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<NbiTopic> topics() {
    return topics;
  }

  @Override
  public void onPacketIn(PacketInView in, AppContext bus) {
    for (int i = 0; i < 10; i++) {
      counter++;
    }
    if (busyNanos > 0) {
      long until = System.nanoTime() + busyNanos;
      while (System.nanoTime() < until) {
        Thread.onSpinWait(); // CPU work, not a sleep: it competes for cores as real work does
      }
    }
  }

  /** The increments so far (read from another thread only after the app's events are done). */
  public long counter() {
    return counter;
  }
}
