package org.netpubsub.edge.overlay;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * A routing broker's check that a datagram comes from the edge it claims (docs/security.md,
 * "Per-edge keys"), and the re-sealing of what it relays. The broker holds the deployment keys
 * ({@code deployment}); edge {@code e}'s keys are derived from them ({@link EdgeKeys}). A message
 * datagram is accepted when its tag verifies under the keys of the origin it names, or under the
 * deployment keys (an edge trusted with them, as every edge was before per-edge keys); a datagram
 * claiming a revoked edge is refused whatever its key. What is relayed to edge {@code t} is
 * re-sealed under {@code t}'s key, so an edge holding only its own key verifies it, and no edge can
 * make another accept a datagram under a third edge's name. One relay thread calls {@link #open}
 * and {@link #sealFor}; {@link #revoke} may come from any thread.
 */
final class OriginCheck {
  /** Derived key sets kept; the least recently used go first (names come from the network). */
  static final int MAX_EDGES = 4096;

  private final DatagramAuth deployment;
  private final Map<String, DatagramAuth> derived = new LinkedHashMap<>(64, 0.75f, true);
  private Object derivedFor;
  private volatile Set<String> revoked = Set.of();
  private String refusal = "unauthenticated";

  private final int maxEdges;

  OriginCheck(DatagramAuth deployment) {
    this(deployment, MAX_EDGES);
  }

  OriginCheck(DatagramAuth deployment, int maxEdges) {
    this.deployment = deployment;
    this.maxEdges = maxEdges;
  }

  /** From now on refuses every datagram claiming one of {@code edges} as its origin. */
  void revoke(Set<String> edges) {
    revoked = Set.copyOf(edges);
  }

  Set<String> revoked() {
    return revoked;
  }

  /** Derived key sets held now (tests). */
  int cached() {
    return derived.size();
  }

  /** Why the last {@link #open} refused: a counter name. */
  String refusal() {
    return refusal;
  }

  /**
   * The length of the datagram in {@code len} sealed bytes of {@code buf} from {@code off}, or -1
   * (reason in {@link #refusal}) when it does not come from the edge it names. Nothing is decoded
   * but the origin's name; nothing is remembered for a datagram that fails.
   */
  int open(byte[] buf, int off, int len) {
    if (!deployment.secure()) {
      return len;
    }
    String origin = origin(buf, off, len);
    if (origin == null) {
      refusal = "unauthenticated";
      return deployment.open(buf, off, len); // not a message datagram: its decoder refuses it
    }
    if (revoked.contains(origin)) {
      refusal = "revoked_origin";
      return -1;
    }
    DatagramAuth mine = keysOf(origin, false);
    int body = mine != null ? mine.open(buf, off, len) : -1;
    if (body < 0) {
      body = deployment.open(buf, off, len); // a holder of the deployment keys is trusted
    }
    if (body < 0 && mine == null) {
      mine = DatagramAuth.of(EdgeKeys.derive(deployment.keys(), origin));
      body = mine.open(buf, off, len);
      if (body >= 0) {
        remember(origin, mine); // only names that authenticated take a place
      }
    }
    if (body < 0) {
      refusal = "unauthenticated";
    }
    return body;
  }

  /** Writes edge {@code edge}'s tag after {@code len} bytes of {@code buf}; the sealed length. */
  int sealFor(byte[] buf, int off, int len, String edge) {
    if (!deployment.secure()) {
      return len;
    }
    DatagramAuth k = keysOf(edge, true);
    return k.seal(buf, off, len);
  }

  private DatagramAuth keysOf(String edge, boolean create) {
    if (derivedFor != deployment.keysVersion()) {
      derived.clear(); // a rotation: every edge's keys follow the deployment's
      derivedFor = deployment.keysVersion();
    }
    DatagramAuth k = derived.get(edge);
    if (k == null && create) {
      k = DatagramAuth.of(EdgeKeys.derive(deployment.keys(), edge));
      remember(edge, k);
    }
    return k;
  }

  private void remember(String edge, DatagramAuth k) {
    derived.put(edge, k);
    if (derived.size() > maxEdges) {
      derived.remove(derived.keySet().iterator().next());
    }
  }

  /**
   * The origin a message datagram names ({@link DatagramCodec}: magic, version, flags, origin
   * length and origin), or null when the bytes are no message datagram.
   */
  static String origin(byte[] buf, int off, int len) {
    if (len < 5 || buf[off] != DatagramCodec.MAGIC_0 || buf[off + 1] != DatagramCodec.MAGIC_1) {
      return null;
    }
    int n = buf[off + 4] & 0xff;
    if (n == 0 || n > 64 || 5 + n > len) {
      return null;
    }
    for (int i = off + 5; i < off + 5 + n; i++) {
      byte c = buf[i]; // an edge name ([A-Za-z0-9._-]), or no key is derived for it
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      if (!ok) {
        return null;
      }
    }
    return new String(buf, off + 5, n, StandardCharsets.UTF_8);
  }
}
