package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;

/**
 * What a switch does with one packet: the multiset of copies it sends out (port and rewritten
 * headers), sorted so that two results compare with {@code equals}. {@code translationFailed}: the
 * pipeline hit a resource limit (groups nested too deep) and, like Open vSwitch, the switch dropped
 * the packet entirely.
 */
public record Forwarding(List<Egress> egresses, boolean translationFailed) {
  /** Nothing leaves. */
  public static final Forwarding DROP = new Forwarding(List.of(), false);

  /** The packet was dropped because its translation failed. */
  public static final Forwarding FAILED = new Forwarding(List.of(), true);

  public Forwarding {
    List<Egress> sorted = new ArrayList<>(egresses);
    sorted.sort(null);
    egresses = List.copyOf(sorted);
    if (translationFailed && !egresses.isEmpty()) {
      throw new IllegalArgumentException("a failed translation sends nothing");
    }
  }

  public static Forwarding of(List<Egress> egresses) {
    return new Forwarding(egresses, false);
  }

  public static Forwarding of(Egress... egresses) {
    return new Forwarding(List.of(egresses), false);
  }

  /** The ports copies leave by, sorted, with repetitions. */
  public List<Long> ports() {
    return egresses.stream().map(Egress::port).toList();
  }

  /** True if some copy leaves by {@code port}. */
  public boolean reaches(long port) {
    return egresses.stream().anyMatch(e -> e.port() == port);
  }

  public boolean isDrop() {
    return egresses.isEmpty();
  }

  @Override
  public String toString() {
    if (translationFailed) {
      return "translation failed, dropped";
    }
    return egresses.isEmpty() ? "drop" : egresses.toString();
  }
}
