package org.netpubsub.edge.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeKeysTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void hkdfGivesRfc5869sFirstTestVector() {
    byte[] ikm = HEX.parseHex("0b".repeat(22));
    byte[] salt = HEX.parseHex("000102030405060708090a0b0c");
    byte[] info = HEX.parseHex("f0f1f2f3f4f5f6f7f8f9");
    byte[] prk = EdgeKeys.extract(salt, ikm);
    assertThat(HEX.formatHex(prk))
        .isEqualTo("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    assertThat(HEX.formatHex(EdgeKeys.expand(prk, info, 42)))
        .isEqualTo(
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
  }

  @Test
  void everyEdgeGetsItsOwnKeyAndTheDeploymentKeysOrderIsKept() {
    byte[] m1 = HEX.parseHex("31".repeat(32));
    byte[] m2 = HEX.parseHex("32".repeat(32));
    byte[] paris = EdgeKeys.derive(m1, "paris");
    assertThat(paris).hasSize(32).isEqualTo(EdgeKeys.derive(m1, "paris"));
    assertThat(paris).isNotEqualTo(EdgeKeys.derive(m1, "rome")).isNotEqualTo(m1);
    assertThat(paris).isNotEqualTo(EdgeKeys.derive(m2, "paris"));
    // "pari" + "s" must not meet another split of the same bytes
    assertThat(EdgeKeys.derive(m1, "a.b")).isNotEqualTo(EdgeKeys.derive(m1, "a.c"));
    List<byte[]> both = EdgeKeys.derive(List.of(m2, m1), "paris");
    assertThat(Arrays.equals(both.get(1), paris)).isTrue();
    assertThat(Arrays.equals(both.get(0), EdgeKeys.derive(m2, "paris"))).isTrue();
  }

  @Test
  void anEdgeViewOfTheDeploymentKeysOpensItsOwnKeyAndFollowsUpdates() {
    byte[] m1 = HEX.parseHex("41".repeat(32));
    byte[] m2 = HEX.parseHex("42".repeat(32));
    DatagramAuth deployment = DatagramAuth.of(List.of(m1));
    DatagramAuth rome = deployment.forEdge("rome");
    byte[] forRome = sealed(DatagramAuth.of(EdgeKeys.derive(List.of(m1), "rome")));
    byte[] forParis = sealed(DatagramAuth.of(EdgeKeys.derive(List.of(m1), "paris")));
    byte[] underMaster = sealed(deployment);
    assertThat(rome.open(forRome, 0, forRome.length)).isEqualTo(5);
    assertThat(rome.open(underMaster, 0, underMaster.length)).isEqualTo(5);
    assertThat(rome.open(forParis, 0, forParis.length)).isEqualTo(-1); // another edge's key
    assertThat(deployment.open(forRome, 0, forRome.length)).isEqualTo(-1);
    deployment.update(List.of(m2));
    assertThat(rome.open(forRome, 0, forRome.length)).isEqualTo(-1); // m1 is gone
    byte[] forRome2 = sealed(DatagramAuth.of(EdgeKeys.derive(List.of(m2), "rome")));
    assertThat(rome.open(forRome2, 0, forRome2.length)).isEqualTo(5);
    assertThat(deployment.openedUnderOtherKey()).isZero(); // a derived key is not "another key"
  }

  private static byte[] sealed(DatagramAuth a) {
    byte[] d = Arrays.copyOf("hello".getBytes(), 5 + DatagramAuth.TAG);
    a.seal(d, 0, 5);
    return d;
  }
}
