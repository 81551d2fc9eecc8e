package org.netpubsub.network.camus;

import java.util.Collections;
import java.util.SortedMap;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.content.address.Ipv6Address;

/**
 * What one host's subscription change did to the network: per recompiled switch, its table diff
 * (apply additions, then removals). Switches whose filter sets do not hold the host are absent:
 * their tables stay as they are.
 */
public record RoutingUpdate(Ipv6Address host, SortedMap<Long, PipelineDiff> diffs) {
  public RoutingUpdate {
    diffs = Collections.unmodifiableSortedMap(diffs);
  }

  /** The switches recompiled. */
  public int switches() {
    return diffs.size();
  }

  /** Table writes over all switches: entries and groups added plus removed. */
  public int operations() {
    return diffs.values().stream().mapToInt(PipelineDiff::size).sum();
  }
}
