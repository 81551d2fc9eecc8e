package org.netpubsub.edge.overlay;

import java.util.Map;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * An edge broker that holds its own datagram key only, not the deployment's (docs/security.md,
 * "Per-edge keys"): its {@link EdgeBrokerConfig#auth} is that key, and {@code pairs} the keys it
 * shares with other such edges for their direct datagrams (peer edge → key, {@code nps overlay keys
 * edge --peer}).
 */
public record OwnKeyOnly(Map<String, DatagramAuth> pairs) {
  /** Peers a file may name: the pairs are held in memory for the edge's life. */
  public static final int MAX_PAIRS = 4096;

  public OwnKeyOnly {
    pairs = Map.copyOf(pairs);
    if (pairs.size() > MAX_PAIRS) {
      throw new IllegalArgumentException(
          "at most " + MAX_PAIRS + " pair keys, not " + pairs.size());
    }
    pairs.keySet().forEach(ZnodePaths::checkName);
  }

  /** No pair keys: direct datagrams only with edges that hold the deployment keys. */
  public static OwnKeyOnly alone() {
    return new OwnKeyOnly(Map.of());
  }

  /**
   * A pair-key file's text ({@code nps overlay keys edge --peer}): one {@code PEER HEX [HEX...]} a
   * line (a key per deployment key, the first signs), {@code #} comments. Errors name the line,
   * never a key.
   */
  public static OwnKeyOnly parse(String text) {
    Map<String, DatagramAuth> pairs = new java.util.HashMap<>();
    int line = 0;
    for (String l : text.split("\n")) {
      line++;
      String s = l.strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      String[] f = s.split("\\s+");
      try {
        if (f.length < 2) {
          throw new IllegalArgumentException("needs PEER HEX");
        }
        ZnodePaths.checkName(f[0]);
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        for (int i = 1; i < f.length; i++) {
          keys.add(java.util.HexFormat.of().parseHex(f[i]));
        }
        if (pairs.put(f[0], DatagramAuth.of(keys)) != null) {
          throw new IllegalArgumentException("peer " + f[0] + " twice");
        }
      } catch (IllegalArgumentException e) {
        String why =
            e.getMessage() != null && !e.getMessage().contains("hex") ? e.getMessage() : "";
        throw new IllegalArgumentException(
            "line " + line + ": " + (why.isEmpty() ? "not PEER HEX [HEX...]" : why));
      }
    }
    return new OwnKeyOnly(pairs);
  }
}
