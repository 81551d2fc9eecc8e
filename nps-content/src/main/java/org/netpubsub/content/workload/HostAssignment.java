package org.netpubsub.content.workload;

/** How subscriptions are divided among the end hosts {@code h1..hN} (or ports 1..N). */
public enum HostAssignment {
  /** Subscription i goes to host (i mod N) + 1: equal shares (PLEROMA Fig. 8e). */
  ROUND_ROBIN,
  /** Each subscription goes to a host drawn uniformly ("randomly divided", PLEROMA Fig. 8a). */
  RANDOM,
  /**
   * Every host is assigned one hotspot and subscribes only around it (PLEROMA Fig. 8a, Zipfian
   * case); only for models with hotspots. Host j (0-based) serves hotspot j mod H; a subscription
   * drawn around hotspot k goes round-robin to the hosts serving k, or to host k mod N when there
   * are fewer hosts than hotspots.
   */
  HOTSPOT;

  /** The option spelling: {@code round-robin}, {@code random}, {@code hotspot}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** Parses the option spelling. */
  public static HostAssignment parse(String label) {
    for (HostAssignment a : values()) {
      if (a.label().equals(label)) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "unknown host assignment '" + label + "' (use round-robin, random or hotspot)");
  }
}
