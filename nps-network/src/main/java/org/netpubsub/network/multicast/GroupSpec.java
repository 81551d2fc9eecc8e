package org.netpubsub.network.multicast;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;

/**
 * A multicast group as its owner (the edge coordinator) states it: the hosts that receive, the
 * hosts that send, and how trees are shaped. Every source gets its own tree to every member but
 * itself (a source's own edge serves its local subscribers).
 */
public record GroupSpec(
    String name,
    SortedSet<Ipv6Address> members,
    SortedSet<Ipv6Address> sources,
    TreeStrategy strategy) {
  /** The longest group name accepted. */
  public static final int MAX_NAME = 512;

  /** Most members (and most sources) per group. */
  public static final int MAX_HOSTS = 4096;

  public GroupSpec {
    if (name == null || name.isEmpty() || name.length() > MAX_NAME) {
      throw new IllegalArgumentException("a group name has 1 to " + MAX_NAME + " characters");
    }
    if (members.size() > MAX_HOSTS || sources.size() > MAX_HOSTS) {
      throw new IllegalArgumentException(
          "a group has at most " + MAX_HOSTS + " members and sources");
    }
    members = sorted(members);
    sources = sorted(sources);
  }

  public static GroupSpec of(
      String name, Set<Ipv6Address> members, Set<Ipv6Address> sources, TreeStrategy strategy) {
    return new GroupSpec(name, new TreeSet<>(members), new TreeSet<>(sources), strategy);
  }

  private static SortedSet<Ipv6Address> sorted(Set<Ipv6Address> s) {
    return java.util.Collections.unmodifiableSortedSet(new TreeSet<>(s));
  }
}
