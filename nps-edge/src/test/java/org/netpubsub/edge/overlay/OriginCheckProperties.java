package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.EdgeMessage;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/**
 * {@link OriginCheck} against its naive twin, the rule as docs/security.md states it: a message
 * datagram is accepted when its origin is not revoked and its tag verifies under the deployment
 * keys or the origin's own derived key; anything else (no message, or a name no key is derived for)
 * only under the deployment keys. The check tries the deployment keys first and reads the origin
 * only when they fail or a revocation list is set, and keeps the own keys that authenticated: its
 * verdicts, after any history of datagrams, revocations and rotations, must be the twin's.
 */
class OriginCheckProperties {
  sealed interface Op {}

  /** A datagram from {@code origin} (null: no message datagram) sealed by {@code signer}. */
  record Send(String origin, Signer signer) implements Op {}

  record Revoke(Set<String> edges) implements Op {}

  record Rotate() implements Op {}

  enum Signer {
    DEPLOYMENT,
    OWN, // the origin's derived key
    OTHER, // another edge's derived key
    STALE // a deployment key no longer (or never) given
  }

  private static final List<String> EDGES = List.of("paris", "rome", "lyon", "mallory");

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<String> origin =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.of(EDGES)),
            Tuple.of(1, Arbitraries.just("a/b")), // no edge name: no key is derived for it
            Tuple.of(1, Arbitraries.just((String) null)));
    Arbitrary<Op> send =
        Combinators.combine(origin, Arbitraries.of(Signer.class)).as((o, s) -> (Op) new Send(o, s));
    Arbitrary<Op> revoke =
        Arbitraries.of(EDGES).set().ofMaxSize(2).map(s -> (Op) new Revoke(Set.copyOf(s)));
    return Arbitraries.frequencyOf(
            Tuple.of(10, send), Tuple.of(1, revoke), Tuple.of(1, Arbitraries.just(new Rotate())))
        .list()
        .ofMaxSize(40);
  }

  @Property(tries = 200)
  void acceptsExactlyWhatTheRuleAccepts(@ForAll("ops") List<Op> ops) throws Exception {
    byte[] key = HexFormat.of().parseHex("5a".repeat(32));
    byte[] stale = HexFormat.of().parseHex("17".repeat(32));
    DatagramAuth deployment = DatagramAuth.of(List.of(key));
    OriginCheck check = new OriginCheck(deployment, 3); // fewer than the edges: evictions too
    Set<String> revoked = Set.of();
    for (Op op : ops) {
      switch (op) {
        case Revoke r -> {
          check.revoke(r.edges());
          revoked = r.edges();
        }
        case Rotate r -> {
          stale = key;
          key = key.clone();
          key[0]++;
          deployment.update(List.of(key));
        }
        case Send s -> {
          byte[] d = datagram(s.origin(), sealer(s, key, stale));
          int body = d.length - DatagramAuth.TAG;
          boolean named = s.origin() != null && !s.origin().contains("/");
          boolean twin =
              named
                  ? !revoked.contains(s.origin())
                      && (s.signer() == Signer.DEPLOYMENT || s.signer() == Signer.OWN)
                  : s.signer() == Signer.DEPLOYMENT;
          int got = check.open(d, 0, d.length);
          assertThat(got).as("%s, revoked %s", s, revoked).isEqualTo(twin ? body : -1);
          if (!twin) {
            boolean byRevocation = named && revoked.contains(s.origin());
            assertThat(check.refusal())
                .isEqualTo(byRevocation ? "revoked_origin" : "unauthenticated");
          }
        }
      }
    }
  }

  private static DatagramAuth sealer(Send s, byte[] key, byte[] stale) {
    String name = s.origin() == null ? "nack" : s.origin();
    return switch (s.signer()) {
      case DEPLOYMENT -> DatagramAuth.of(List.of(key));
      case OWN -> DatagramAuth.of(EdgeKeys.derive(List.of(key), name));
      case OTHER ->
          DatagramAuth.of(EdgeKeys.derive(List.of(key), name.equals("rome") ? "oslo" : "rome"));
      case STALE -> DatagramAuth.of(List.of(stale));
    };
  }

  private static byte[] datagram(String origin, DatagramAuth sealer) throws Exception {
    byte[] d =
        origin == null
            ? "nack datagram".getBytes(StandardCharsets.UTF_8)
            : DatagramCodec.encode(
                new EdgeMessage(
                    origin.replace('/', '.'),
                    7,
                    "t/1",
                    "x".getBytes(StandardCharsets.UTF_8),
                    0,
                    false));
    if (origin != null && origin.contains("/")) {
      d[5 + origin.indexOf('/')] = '/'; // the codec writes edge names only: put the junk in after
    }
    return TestKeys.seal(sealer, d);
  }
}
