package org.netpubsub.network.openflow;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * The simulated switch's tables, groups and ports as one packet's {@link Pipeline} run reads them:
 * among equal-priority matches the run's {@link Chooser} picks (the oldest by default), and every
 * entry hit goes to {@code hits} (null if nobody counts them). One per run (package-private).
 */
record SwitchDatapath(
    SwitchConfig config,
    FlowTable[] tables,
    Map<Long, GroupEntry> groups,
    LongPredicate portLive,
    List<Long> floodPorts,
    Chooser chooser,
    List<StoredFlow> hits)
    implements Datapath {

  /** The ports ALL and FLOOD reach on a switch of this configuration, ascending, LOCAL included. */
  static List<Long> floodPorts(SwitchConfig config) {
    TreeSet<Long> all = new TreeSet<>(config.ports());
    if (config.localPort()) {
      all.add(OfPort.LOCAL);
    }
    return List.copyOf(all);
  }

  @Override
  public FlowEntry lookup(int table, PacketHeaders headers, long inPort, long metadata) {
    List<StoredFlow> candidates = tables[table].lookup(headers, inPort, metadata);
    if (candidates.isEmpty()) {
      return null;
    }
    StoredFlow f =
        candidates.get(candidates.size() == 1 ? 0 : chooser.choose(candidates.size(), 0));
    if (hits != null) {
      hits.add(f);
    }
    return f.entry;
  }

  @Override
  public GroupEntry group(long id) {
    return groups.get(id);
  }

  @Override
  public boolean hasPort(long port) {
    return config.hasPort(port);
  }

  @Override
  public boolean isLive(long port) {
    return config.hasPort(port) && portLive.test(port);
  }
}
