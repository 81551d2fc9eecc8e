package org.netpubsub.compiler.target.p4;

import java.util.Arrays;

/** A multicast group of the packet replication engine: its id and egress ports (sorted). */
public record P4Group(int id, int[] ports) {
  public P4Group {
    ports = Arrays.stream(ports).sorted().distinct().toArray();
  }

  @Override
  public int[] ports() {
    return ports.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof P4Group g && id == g.id && Arrays.equals(ports, g.ports);
  }

  @Override
  public int hashCode() {
    return 31 * id + Arrays.hashCode(ports);
  }
}
