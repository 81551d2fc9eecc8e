package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Overlay keys of DDS topics, type conflicts, the child's frames and the --local syntax. */
class DdsTopicsTest {
  static final String H1 = "c08db296e40ddeae7f103e5cb15c";
  static final String H2 = "00000000000000000000000000ff";

  @Provide
  Arbitrary<DdsTopics.Key> keys() {
    var topic = Arbitraries.strings().withChars("abcXYZ_/09").ofMinLength(1).ofMaxLength(20);
    var type = Arbitraries.strings().withChars("abc:_9").ofMinLength(1).ofMaxLength(12);
    var hash = Arbitraries.strings().withChars("0123456789abcdef").ofLength(28);
    return net.jqwik.api.Combinators.combine(topic, type, hash).as(DdsTopics.Key::new);
  }

  @Property
  void keysRoundTrip(@ForAll("keys") DdsTopics.Key k) {
    assertThat(DdsTopics.parse(DdsTopics.key(k))).contains(k);
  }

  @Test
  void malformedKeysAreRefused() {
    for (String bad :
        List.of(
            "readings",
            "dds/readings",
            "dds//T/" + H1,
            "dds/readings/T/" + H1.toUpperCase(),
            "dds/readings/T/abc",
            "dds/a+b/T/" + H1,
            "dds/a/#/T/" + H1)) {
      assertThat(DdsTopics.parse(bad)).as(bad).isEmpty();
    }
  }

  @Property
  void conflictsAreTheLocalKeysWhoseTopicHasAnotherKey(
      @ForAll("keys") DdsTopics.Key a, @ForAll("keys") DdsTopics.Key b) {
    Set<String> tree = new HashSet<>(List.of(DdsTopics.key(a), DdsTopics.key(b), "mqtt/topic"));
    Set<String> naive = new HashSet<>();
    for (String l : List.of(DdsTopics.key(a))) {
      for (String t : tree) {
        if (!t.equals(l)
            && DdsTopics.parse(t).map(k -> k.topic().equals(a.topic())).orElse(false)) {
          naive.add(l);
        }
      }
    }
    assertThat(DdsTopics.conflicts(List.of(DdsTopics.key(a)), tree)).isEqualTo(naive);
  }

  @Test
  void aTypeHashOrNameDifferingAtAnotherSiteIsAConflict() {
    String mine = "dds/readings/demo::Reading/" + H1;
    assertThat(DdsTopics.conflicts(Set.of(mine), Set.of(mine, "dds/other/x/" + H2))).isEmpty();
    assertThat(DdsTopics.conflicts(Set.of(mine), Set.of(mine, "dds/readings/demo::Reading/" + H2)))
        .containsExactly(mine);
    assertThat(DdsTopics.conflicts(Set.of(mine), Set.of("dds/readings/demo::Other/" + H1)))
        .containsExactly(mine);
  }

  @Test
  void samplesRoundTripAndShortFramesAreRefused() {
    var s = new DdsFrames.Sample("dds/t/T/" + H1, true, new byte[] {0, 1, 0, 0, 42});
    byte[] f = DdsFrames.sample(s);
    assertThat(ByteBuffer.wrap(f).getInt()).isEqualTo(f.length - 4);
    assertThat(f[4]).isEqualTo(DdsFrames.SAMPLE);
    var back = DdsFrames.sample(java.util.Arrays.copyOfRange(f, 5, f.length));
    assertThat(back.key()).isEqualTo(s.key());
    assertThat(back.reliable()).isTrue();
    assertThat(back.cdr()).containsExactly(s.cdr());
    assertThatThrownBy(() -> DdsFrames.sample(new byte[] {0, 9, 'a', 'b'}))
        .hasMessageContaining("shorter than its key");
    assertThatThrownBy(() -> DdsFrames.sample(new byte[] {0})).hasMessageContaining("too short");
  }

  @Test
  void endpointsAreStrictAboutRoleAndKey() {
    var e =
        DdsFrames.endpoint(
            ("{\"role\":\"sub\",\"present\":true,\"key\":\"k\",\"reliable\":true,"
                    + "\"durability\":\"transient_local\",\"deadline_ms\":50,\"depth\":5}")
                .getBytes());
    assertThat(e)
        .isEqualTo(new DdsFrames.Endpoint("sub", true, "k", true, "transient_local", 50L, 5));
    assertThatThrownBy(() -> DdsFrames.endpoint("{\"role\":\"x\",\"key\":\"k\"}".getBytes()))
        .hasMessageContaining("'role'");
    assertThatThrownBy(() -> DdsFrames.endpoint("{\"role\":\"pub\"}".getBytes()))
        .hasMessageContaining("'key'");
    assertThatThrownBy(() -> DdsFrames.endpoint("[".getBytes())).hasMessageContaining("JSON");
  }

  @Test
  void localDomainsParseAndBadOnesNameThePart() {
    assertThat(DdsDomain.parse(URI.create("dds:7"))).isEqualTo(new DdsDomain(7, null));
    assertThat(DdsDomain.parse(URI.create("dds:0?interface=site")))
        .isEqualTo(new DdsDomain(0, "site"));
    assertThatThrownBy(() -> DdsDomain.parse(URI.create("dds:x")))
        .hasMessageContaining("domain id must be a number");
    assertThatThrownBy(() -> DdsDomain.parse(URI.create("dds:1?iface=x")))
        .hasMessageContaining("?interface=IF");
    assertThatThrownBy(() -> DdsDomain.parse(URI.create("dds:1?interface=a%20b")))
        .hasMessageContaining("bad interface name");
    assertThat(DdsDomain.parse(URI.create("dds:3?interface=site&user_data=DDSPerf:0:1:a%26b+c")))
        .isEqualTo(new DdsDomain(3, "site", "DDSPerf:0:1:a&b+c"));
    assertThat(DdsDomain.parse(URI.create("dds:3?user_data=x")))
        .isEqualTo(new DdsDomain(3, null, "x"));
    assertThatThrownBy(() -> DdsDomain.parse(URI.create("dds:1?user_data=%0A")))
        .hasMessageContaining("user_data");
    assertThatThrownBy(() -> DdsDomain.parse(URI.create("dds:1?user_data=")))
        .hasMessageContaining("user_data");
  }
}
