package org.netpubsub.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.function.Function;

/**
 * The serialized answer of a read-only GET, kept while the state it shows is unchanged: the answer
 * is a pure function of a state value {@code S} ({@code render}), and its bytes are rebuilt only
 * when the state differs ({@code equals}) from the one they were built from. Building and
 * serializing the tree was most of our share of a hot GET's time (docs/results/rest-layer.md).
 * Racing requests may each build the bytes once; every answer still matches the state it read.
 */
public final class CachedJson<S> {
  private record Entry<S>(S state, byte[] json) {}

  private final Function<S, JsonNode> render;
  private volatile Entry<S> last;

  public CachedJson(Function<S, JsonNode> render) {
    this.render = render;
  }

  /** The answer for {@code state}: the bytes built last when it equals their state, else new. */
  public Reply reply(S state) {
    Entry<S> e = last;
    if (e == null || !e.state().equals(state)) {
      try {
        e = new Entry<>(state, Json.MAPPER.writeValueAsBytes(render.apply(state)));
      } catch (IOException ex) {
        throw new IllegalStateException(ex);
      }
      last = e;
    }
    return Reply.ok(e.json());
  }
}
