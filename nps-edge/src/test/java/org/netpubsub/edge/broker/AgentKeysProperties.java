package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/**
 * {@link AgentKeys} against its naive twin, the rule as docs/security-datagrams.md states it
 * ("Per-agent keys (SNAPS)"). An agent holding the deployment keys accepts a datagram naming a
 * non-revoked edge under the deployment keys or that edge's derived key, and one naming no edge
 * only under the deployment keys. An agent holding its own key only accepts a datagram naming a
 * non-revoked edge only under that edge's key, which it must hold (its own, or a sender's); it
 * seals under the key of the edge a datagram names when it holds it, else its own. The agents try
 * the deployment keys first, read names only when needed, keep derived keys that verified and have
 * their senders replaced: after any history of datagrams (messages and control datagrams),
 * revocations, sender changes and rotations, their verdicts and refusal reasons must be the twin's.
 */
class AgentKeysProperties {
  sealed interface Op {}

  /** A datagram naming {@code named} (null: no agent datagram) of kind {@code nr}, sealed so. */
  record Send(String named, boolean nr, Signer signer) implements Op {}

  record Revoke(Set<String> edges) implements Op {}

  record Senders(Set<String> edges) implements Op {}

  record Rotate() implements Op {}

  enum Signer {
    DEPLOYMENT,
    NAMED, // the named edge's own key
    SELF, // the receiving agent's own key
    OTHER, // a third edge's own key
    STALE // a deployment key no longer (or never) given
  }

  private static final String ME = "paris";
  private static final List<String> EDGES = List.of(ME, "rome", "lyon", "mallory");

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<String> named =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.of(EDGES)),
            Tuple.of(1, Arbitraries.just("a/b")), // no edge name: no key is derived for it
            Tuple.of(1, Arbitraries.just((String) null)));
    Arbitrary<Op> send =
        Combinators.combine(named, Arbitraries.of(true, false), Arbitraries.of(Signer.class))
            .as((n, nr, s) -> (Op) new Send(n, nr, s));
    Arbitrary<Set<String>> some = Arbitraries.of(EDGES).set().ofMaxSize(3);
    return Arbitraries.frequencyOf(
            Tuple.of(10, send),
            Tuple.of(1, some.map(s -> (Op) new Revoke(Set.copyOf(s)))),
            Tuple.of(1, some.map(s -> (Op) new Senders(Set.copyOf(s)))),
            Tuple.of(1, Arbitraries.just(new Rotate())))
        .list()
        .ofMaxSize(40);
  }

  @Property(tries = 200)
  void opensAndSealsExactlyAsTheRuleSays(@ForAll("ops") List<Op> ops) throws Exception {
    byte[] key = HexFormat.of().parseHex("5a".repeat(32));
    byte[] stale = HexFormat.of().parseHex("17".repeat(32));
    final byte[] first = key.clone(); // the own-key agent's keys stay derived from this one
    DatagramAuth deployment = DatagramAuth.of(List.of(key));
    AgentKeys shared = AgentKeys.deployment(ME, deployment);
    AgentKeys own = AgentKeys.ownKey(ME, own(first, ME), Map.of());
    Set<String> revoked = Set.of();
    Set<String> senders = Set.of();
    for (Op op : ops) {
      switch (op) {
        case Revoke r -> {
          shared.revoke(r.edges());
          own.revoke(r.edges());
          revoked = r.edges();
        }
        case Senders s -> {
          Map<String, DatagramAuth> m = new HashMap<>();
          s.edges().forEach(e -> m.put(e, own(first, e)));
          own.senders(m);
          senders = s.edges();
        }
        case Rotate r -> {
          stale = key;
          key = key.clone();
          key[0]++;
          deployment.update(List.of(key));
        }
        case Send s -> {
          boolean named = s.named() != null && !s.named().contains("/");
          boolean byName = named && revoked.contains(s.named());

          byte[] d = datagram(s, sealer(s, key, stale));
          boolean twin =
              named
                  ? !byName
                      && (s.signer() == Signer.DEPLOYMENT
                          || s.signer() == Signer.NAMED
                          || s.signer() == Signer.SELF && s.named().equals(ME))
                  : s.signer() == Signer.DEPLOYMENT;
          assertThat(shared.open(d, 0, d.length, null))
              .as("deployment agent: %s, revoked %s", s, revoked)
              .isEqualTo(twin ? d.length - DatagramAuth.TAG : -1);
          if (!twin) {
            assertThat(shared.refusal()).isEqualTo(byName ? "revoked_origin" : "unauthenticated");
          }

          byte[] o = datagram(s, sealer(s, first, stale));
          boolean held = named && (s.named().equals(ME) || senders.contains(s.named()));
          boolean rightKey =
              s.signer() == Signer.NAMED
                  || s.signer() == Signer.SELF && named && s.named().equals(ME);
          boolean ownTwin = named && !byName && held && rightKey;
          assertThat(own.open(o, 0, o.length, null))
              .as("own-key agent: %s, revoked %s, senders %s", s, revoked, senders)
              .isEqualTo(ownTwin ? o.length - DatagramAuth.TAG : -1);
          if (!ownTwin) {
            assertThat(own.refusal())
                .isEqualTo(
                    byName
                        ? "revoked_origin"
                        : named && !held ? "origin_key_unknown" : "unauthenticated");
          }

          // sealing: under the named edge's key when the own-key agent holds it, else its own
          byte[] sealed = java.util.Arrays.copyOf(o, o.length);
          int body = o.length - DatagramAuth.TAG;
          assertThat(own.seal(sealed, 0, body, null)).isEqualTo(o.length);
          DatagramAuth expected = own(first, held ? s.named() : ME);
          assertThat(expected.open(sealed, 0, sealed.length))
              .as("sealed for %s", s)
              .isEqualTo(body);
        }
      }
    }
  }

  private static DatagramAuth own(byte[] master, String edge) {
    return DatagramAuth.of(EdgeKeys.derive(List.of(master), edge));
  }

  private static DatagramAuth sealer(Send s, byte[] key, byte[] stale) {
    String name = s.named() == null || s.named().contains("/") ? "junk" : s.named();
    return switch (s.signer()) {
      case DEPLOYMENT -> DatagramAuth.of(List.of(key));
      case NAMED -> own(key, name);
      case SELF -> own(key, ME);
      case OTHER -> own(key, name.equals("rome") ? "oslo" : "rome");
      case STALE -> DatagramAuth.of(List.of(stale));
    };
  }

  private static byte[] datagram(Send s, DatagramAuth sealer) throws Exception {
    String n = s.named();
    byte[] d;
    if (n == null) {
      d = "no agent datagram".getBytes(StandardCharsets.UTF_8);
    } else {
      String name = n.replace('/', '.');
      d =
          s.nr()
              ? RepairCodec.encode(
                  new RepairCodec.Repair(RepairCodec.Kind.NACK, name, 9, "t/1", 3, 4))
              : DatagramCodec.encode(
                  new EdgeMessage(name, 7, "t/1", "x".getBytes(StandardCharsets.UTF_8), 0, false));
      if (n.contains("/")) {
        d[5 + n.indexOf('/')] = '/'; // the codecs write edge names only: put the junk in after
      }
    }
    return TestKeys.seal(sealer, d);
  }
}
