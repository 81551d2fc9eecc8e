package org.netpubsub.edge.link;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The emulated WAN one broker sends over (experiments only): a profile per destination, else the
 * default; a seed for reproducible loss and jitter. Pure.
 */
public record WanEmulation(
    LinkProfile defaults, Map<InetSocketAddress, LinkProfile> links, long seed) {
  public WanEmulation {
    links = Map.copyOf(links);
  }

  public LinkProfile profileFor(InetSocketAddress to) {
    return links.getOrDefault(to, defaults);
  }
}
