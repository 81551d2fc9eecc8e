package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {
  private static final Route R = r -> null;

  private static Router router(String... methodAndPath) {
    Map<String, Map<String, Route>> table = new LinkedHashMap<>();
    for (String mp : methodAndPath) {
      String[] p = mp.split(" ");
      table.computeIfAbsent(p[1], k -> new LinkedHashMap<>()).put(p[0], R);
    }
    return new Router(table);
  }

  @Test
  void matchesLiteralsOneSegmentParamsAndTheRest() {
    Router r =
        router(
            "GET /v1/topology",
            "GET /v1/edges/{name}/changes",
            "PUT /v1/edges/{name}",
            "DELETE /v1/edges/{name}",
            "GET /v1/groups/<name>");
    assertThat(r.match(Router.split("/v1/topology")).params()).isEmpty();
    assertThat(r.match(Router.split("/v1/topology/")).pattern()).isEqualTo("/v1/topology");
    assertThat(r.match(Router.split("/v1/edges/e1/changes")).params()).containsEntry("name", "e1");
    Router.Match edge = r.match(Router.split("/v1/edges/e1"));
    assertThat(edge.pattern()).isEqualTo("/v1/edges/{name}");
    assertThat(edge.allow()).isEqualTo("DELETE, PUT");
    assertThat(edge.route("GET")).isNull();
    assertThat(edge.route("PUT")).isSameAs(R);
    assertThat(r.match(Router.split("/v1/groups/a/b/c")).params()).containsEntry("name", "a/b/c");
    assertThat(r.match(Router.split("/v1/groups"))).isNull();
    assertThat(r.match(Router.split("/v1/edges//changes"))).isNull();
    assertThat(r.match(Router.split("/v1/topology/x"))).isNull();
    assertThat(r.match(Router.split("/"))).isNull();
  }

  @Test
  void splitsAtSlashesIgnoringOneTrailing() {
    assertThat(Router.split("/")).isEmpty();
    assertThat(Router.split("/a/b/")).isEqualTo(List.of("a", "b"));
    assertThat(Router.split("/a//b")).isEqualTo(List.of("a", "", "b"));
  }

  @Test
  void theRestParameterMustBeLast() {
    assertThatThrownBy(() -> router("GET /a/<x>/b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/a/<x>/b");
  }
}
