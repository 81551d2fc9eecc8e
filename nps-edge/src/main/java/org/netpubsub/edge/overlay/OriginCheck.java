package org.netpubsub.edge.overlay;

import java.util.Set;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.DerivedKeys;
import org.netpubsub.edge.link.EdgeKeys;

/**
 * A routing broker's check that a datagram comes from the edge it claims (docs/security.md,
 * "Per-edge keys"), and the sealing of what it relays. The broker holds the deployment keys ({@code
 * deployment}); edge {@code e}'s keys are derived from them ({@link DerivedKeys}). A message
 * datagram is accepted when its tag verifies under the keys of the origin it names, or under the
 * deployment keys (an edge trusted with them); a datagram claiming a revoked edge is refused
 * whatever its key. What is relayed to an edge that holds the deployment keys keeps the origin's
 * tag (that edge checks the origin's key itself: no second HMAC on the relay path); what is relayed
 * to an edge that holds its own key only is re-sealed under that edge's key, so no edge can make
 * another accept a datagram under a third edge's name. One relay thread calls {@link #open} and
 * {@link #sealFor}; {@link #revoke} may come from any thread. The deployment keys are tried first
 * while no edge is revoked, so an origin holding its own key only costs the broker one HMAC more
 * (docs/results/overlay-relay-auth.md, "Stop 40").
 */
final class OriginCheck {
  /** Derived key sets kept; the least recently used go first (names come from the network). */
  static final int MAX_EDGES = DerivedKeys.MAX_EDGES;

  private final DatagramAuth deployment;
  private final DerivedKeys derived;
  private volatile Set<String> revoked = Set.of();
  private String refusal = "unauthenticated";

  // the tag the last opened datagram came with, while a re-seal has overwritten it in the buffer
  private final byte[] tag = new byte[DatagramAuth.TAG];
  private boolean resealed;

  OriginCheck(DatagramAuth deployment) {
    this(deployment, MAX_EDGES);
  }

  OriginCheck(DatagramAuth deployment, int maxEdges) {
    this.deployment = deployment;
    this.derived = new DerivedKeys(deployment, maxEdges);
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
    resealed = false;
    Set<String> revokedNow = revoked;
    if (revokedNow.isEmpty()) {
      // the default: the origin signs with the deployment keys, which may name any origin, so the
      // name is not even read (no String, no lock): one HMAC, as before per-edge keys
      int body = deployment.open(buf, off, len);
      if (body >= 0) {
        return body;
      }
    }
    String origin = origin(buf, off, len);
    if (origin == null) {
      refusal = "unauthenticated";
      // not a message datagram: its decoder refuses it (the deployment keys were tried above
      // unless a revocation list is set)
      return revokedNow.isEmpty() ? -1 : deployment.open(buf, off, len);
    }
    if (revokedNow.contains(origin)) {
      refusal = "revoked_origin";
      return -1;
    }
    // an origin that holds its own key only: its key is held here once it authenticated
    DatagramAuth own = derived.held(origin);
    int body = own != null ? own.open(buf, off, len) : -1;
    if (body < 0 && !revokedNow.isEmpty()) {
      body = deployment.open(buf, off, len); // not tried above
    }
    if (body < 0 && own == null) {
      body = derived.open(origin, buf, off, len); // derived, and kept if it verifies
    }
    if (body < 0) {
      refusal = "unauthenticated";
    }
    return body;
  }

  /**
   * The datagram of {@code len} bytes last {@link #open}ed, sealed for edge {@code edge}: re-sealed
   * under its key when it holds its own key only ({@code ownKey}), else with the tag it came with
   * (put back if a re-seal for an earlier target overwrote it); the sealed length.
   */
  int sealFor(byte[] buf, int off, int len, String edge, boolean ownKey) {
    if (!deployment.secure()) {
      return len;
    }
    if (ownKey) {
      if (!resealed) {
        System.arraycopy(buf, off + len, tag, 0, tag.length);
        resealed = true;
      }
      return derived.of(edge).seal(buf, off, len);
    }
    if (resealed) {
      System.arraycopy(tag, 0, buf, off + len, tag.length);
      resealed = false;
    }
    return len + DatagramAuth.TAG;
  }

  /**
   * The origin a message datagram names ({@link DatagramCodec}: magic, version, flags, origin
   * length and origin), or null when the bytes are no message datagram.
   */
  static String origin(byte[] buf, int off, int len) {
    if (len < 5 || buf[off] != DatagramCodec.MAGIC_0 || buf[off + 1] != DatagramCodec.MAGIC_1) {
      return null;
    }
    return EdgeKeys.nameAt(buf, off + 4, len - 4);
  }
}
