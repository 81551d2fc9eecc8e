package org.netpubsub.network.multicast;

import java.util.Set;

/** A simulated pub/sub group: the publisher's node and the subscribers' nodes (root excluded). */
public record Group(int root, Set<Integer> members) {
  public Group {
    members = Set.copyOf(members);
    if (members.contains(root)) {
      throw new IllegalArgumentException("root " + root + " cannot be its own member");
    }
  }
}
