package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.link.RevokedBound;

/** The revoked-edges znode's JSON ({@link RevokedZnode}) and the union a broker refuses. */
class RevokedZnodeTest {
  private static Set<String> parse(String json) {
    return RevokedZnode.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void namesRoundTripSortedInSnakeCase() {
    byte[] d = RevokedZnode.toJson(List.of("rome", "mallory", "rome"));
    assertThat(new String(d, StandardCharsets.UTF_8))
        .isEqualTo("{\"revoked_edges\":[\"mallory\",\"rome\"]}");
    assertThat(RevokedZnode.parse(d)).containsExactlyInAnyOrder("mallory", "rome");
    assertThat(parse("{\"revoked_edges\":[]}")).isEmpty();
  }

  @Test
  void badListsAreRefusedWholeNamingTheField() {
    assertThatThrownBy(() -> parse("{")).hasMessage("not JSON");
    assertThatThrownBy(() -> parse("[]")).hasMessage("not a JSON object");
    assertThatThrownBy(() -> parse("{}")).hasMessageContaining("'revoked_edges' must be a list");
    assertThatThrownBy(() -> parse("{\"revoked_edges\":\"rome\"}"))
        .hasMessageContaining("'revoked_edges' must be a list");
    assertThatThrownBy(() -> parse("{\"revoked_edges\":[\"rome\",\"a/b\"]}"))
        .hasMessage("'revoked_edges[1]' is not an edge name");
    assertThatThrownBy(() -> parse("{\"revoked_edges\":[\"rome\",7]}"))
        .hasMessage("'revoked_edges[1]' is not an edge name");
    assertThatThrownBy(() -> parse("{\"revoked_edges\":[],\"revokedEdges\":[]}"))
        .hasMessage("unknown field 'revokedEdges'");
    assertThatThrownBy(() -> RevokedZnode.toJson(List.of("..")))
        .hasMessageContaining("'..' is not a broker name");
  }

  @Test
  void atMostTheSharedBoundOfEdges() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < RevokedBound.MAX_EDGES; i++) {
      names.add("e" + i);
    }
    byte[] full = RevokedZnode.toJson(names);
    assertThat(RevokedZnode.parse(full)).hasSize(4096);
    names.add("one-more");
    assertThatThrownBy(() -> RevokedZnode.toJson(names))
        .hasMessageContaining("'revoked_edges' would name 4097 edges, at most 4096");
    StringBuilder json = new StringBuilder("{\"revoked_edges\":[");
    for (int i = 0; i <= RevokedBound.MAX_EDGES; i++) {
      json.append(i == 0 ? "" : ",").append("\"e").append(i).append('"');
    }
    assertThatThrownBy(() -> parse(json + "]}"))
        .hasMessage("'revoked_edges' names 4097 edges, at most 4096");
    byte[] huge = new byte[RevokedZnode.MAX_BYTES + 1];
    assertThatThrownBy(() -> RevokedZnode.parse(huge)).hasMessageContaining("B");
  }

  @Test
  void theUnionKeepsANameEitherSourceHoldsAndIsHandedOverOnAttach() {
    RevokedUnion u = new RevokedUnion();
    AtomicReference<Set<String>> broker = new AtomicReference<>();
    u.file(Set.of("x", "y"));
    u.zookeeper(Set.of("x", "z"));
    assertThat(broker.get()).isNull(); // not attached yet
    u.attach(broker::set);
    assertThat(broker.get()).containsExactlyInAnyOrder("x", "y", "z");
    u.zookeeper(Set.of()); // lifted in the znode: the file still names x
    assertThat(broker.get()).containsExactlyInAnyOrder("x", "y");
    u.file(Set.of());
    assertThat(broker.get()).isEmpty();
    u.zookeeper(Set.of("z"));
    assertThat(broker.get()).containsExactly("z");
  }
}
