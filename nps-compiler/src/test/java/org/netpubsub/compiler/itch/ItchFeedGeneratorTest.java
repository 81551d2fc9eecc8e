package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.WorkloadSpec;

class ItchFeedGeneratorTest {
  static byte[] bytes(ItchModel.Variant v, long seed, int n) {
    ItchFeedGenerator g = new ItchFeedGenerator(v, seed, n);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] m = new byte[ItchMessageTypes.MAX_LENGTH];
    while (g.hasNext()) {
      int len = g.next(m, 0);
      out.write(m, 0, len);
    }
    return out.toByteArray();
  }

  @Test
  void theSameSeedGivesTheSameBytes() {
    assertThat(bytes(ItchModel.Variant.RICH, 7, 2000))
        .isEqualTo(bytes(ItchModel.Variant.RICH, 7, 2000));
    assertThat(bytes(ItchModel.Variant.RICH, 7, 2000))
        .isNotEqualTo(bytes(ItchModel.Variant.RICH, 8, 2000));
  }

  @Test
  void addOrdersAreTheModelsEventsAmongOtherWellFormedMessages() {
    int n = 20_000;
    ItchFeedGenerator g = new ItchFeedGenerator(ItchModel.Variant.RICH, 3, n);
    var events =
        new ItchModel(ItchModel.Variant.RICH)
            .generate(new WorkloadSpec(3, 0, n, 200, HostAssignment.RANDOM, Arrival.NONE))
            .eventIterator();
    Map<Character, Integer> types = new HashMap<>();
    Set<Character> firstThree = new HashSet<>();
    byte[] m = new byte[ItchMessageTypes.MAX_LENGTH];
    long[] v = new long[4];
    int k = 0;
    while (g.hasNext()) {
      int len = g.next(m, 0);
      char t = (char) m[0];
      types.merge(t, 1, Integer::sum);
      assertThat(len).as("type %s", t).isEqualTo(ItchMessageTypes.length(m[0]));
      if (k++ < 3) {
        firstThree.add((char) m[11]);
      }
      if (ItchMessageTypes.isAddOrder(m[0])) {
        assertThat(AddOrders.decode(m, 0, len, v)).isNull();
        Event e = events.next();
        Event decoded = AddOrders.toEvent(new ItchModel(ItchModel.Variant.RICH).schema(), v);
        assertThat(decoded.stringValue(0)).isEqualTo(e.stringValue(0));
        assertThat(decoded.intValue(1)).isEqualTo(e.intValue(1));
        assertThat(decoded.intValue(2)).isEqualTo(e.intValue(2));
        assertThat(decoded.stringValue(3)).isEqualTo(e.stringValue(3));
      }
    }
    assertThat(firstThree).containsExactlyInAnyOrder('O', 'S', 'Q');
    assertThat(types.keySet()).contains('A', 'F', 'S', 'D', 'U', 'X', 'E', 'P');
    int adds = types.get('A') + types.get('F');
    assertThat(adds).isBetween(n * 45 / 100, n * 60 / 100);
    assertThat(types.get('F')).isBetween(adds / 20, adds / 5);
    assertThat(g.addOrders()).isEqualTo(adds);
    assertThat(g.produced()).isEqualTo(n);
  }
}
