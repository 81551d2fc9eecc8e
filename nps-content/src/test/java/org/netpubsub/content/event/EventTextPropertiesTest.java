package org.netpubsub.content.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.schema.Attribute;

class EventTextPropertiesTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Property(tries = 500, edgeCases = EdgeCasesMode.NONE)
  void jsonLinesReadBackEqual(@ForAll("events") Event event) throws Exception {
    String line = MAPPER.writeValueAsString(EventText.toJsonObject(event));
    assertThat(line).doesNotContain("\n");
    assertThat(EventText.fromJson(event.schema(), line)).isEqualTo(event);
  }

  @Property(tries = 500, edgeCases = EdgeCasesMode.NONE)
  void quotedAssignmentsInAnyOrderReadBackEqual(@ForAll("events") Event event, @ForAll long seed) {
    List<String> words = new ArrayList<>();
    for (Attribute a : event.schema().attributes()) {
      Object v = event.value(a);
      words.add(a.name() + "=" + (v instanceof String s ? "\"" + s + "\"" : v));
    }
    Collections.shuffle(words, new java.util.Random(seed));
    Event header =
        event.toBuilder().payload(new byte[0]).publisherId(0).sequence(0).timestampNanos(0).build();
    assertThat(EventText.fromAssignments(event.schema(), words)).isEqualTo(header);
  }

  @Provide
  Arbitrary<Event> events() {
    return EventArbitraries.events(100);
  }
}
