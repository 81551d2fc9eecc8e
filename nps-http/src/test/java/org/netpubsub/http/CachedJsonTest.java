package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachedJsonTest {
  @Test
  void theBytesFollowTheStateAndAreBuiltOncePerChange() throws Exception {
    AtomicInteger renders = new AtomicInteger();
    CachedJson<List<Integer>> cache =
        new CachedJson<>(
            s -> {
              renders.incrementAndGet();
              return Json.MAPPER.valueToTree(java.util.Map.of("items", s));
            });
    List<List<Integer>> states =
        List.of(List.of(), List.of(), List.of(1), List.of(1), List.of(1, 2), List.of(), List.of());
    int changes = 0;
    List<Integer> before = null;
    for (List<Integer> s : states) {
      Reply r = cache.reply(s);
      JsonNode direct = Json.MAPPER.valueToTree(java.util.Map.of("items", s));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.json()).isEqualTo(Json.MAPPER.writeValueAsBytes(direct));
      changes += s.equals(before) ? 0 : 1;
      before = s;
      assertThat(renders.get()).isEqualTo(changes);
    }
    assertThat(changes).isEqualTo(4);
  }
}
