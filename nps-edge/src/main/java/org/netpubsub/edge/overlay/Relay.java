package org.netpubsub.edge.overlay;

import java.util.List;
import java.util.Map;

/**
 * The data-path decisions of §2.2: a topic leaves a site only when some other site subscribes to
 * it, and a routing broker relays a message only to subscribers in sites other than the
 * publisher's. Pure.
 */
public final class Relay {
  private Relay() {}

  /** True when an edge at {@code site} must send the topic's messages out of the site. */
  public static boolean isGlobal(TopicState t, String site) {
    return t.subscribers().values().stream().anyMatch(e -> !e.site().equals(site));
  }

  /** Where a routing broker sends a message published at edge {@code origin}. */
  public static List<Endpoint> targets(TopicState t, String origin) {
    String site = siteOf(t, origin);
    return t.subscribers().entrySet().stream()
        .filter(e -> !e.getKey().equals(origin) && !e.getValue().site().equals(site))
        .map(Map.Entry::getValue)
        .sorted(java.util.Comparator.comparing(e -> ZnodeData.address(e.address())))
        .toList();
  }

  /** The site of an edge as its entries say; an unknown edge is its own site. */
  public static String siteOf(TopicState t, String edge) {
    Endpoint e = t.publishers().get(edge);
    if (e == null) {
      e = t.subscribers().get(edge);
    }
    return e != null ? e.site() : edge;
  }
}
