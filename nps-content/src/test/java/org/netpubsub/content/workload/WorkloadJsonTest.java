package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

class WorkloadJsonTest {
  @Test
  void subscriptionLines() {
    assertThat(
            WorkloadJson.line(
                Subscription.forHost("a0 in [12, 300]", "h3", OptionalDouble.empty())))
        .isEqualTo("{\"kind\":\"filter\",\"filter\":\"a0 in [12, 300]\",\"host\":\"h3\"}");
    assertThat(
            WorkloadJson.line(
                Subscription.forPort("stock == \"GOOGL\"", 17, OptionalDouble.of(2.5))))
        .isEqualTo(
            "{\"kind\":\"filter\",\"filter\":\"stock == \\\"GOOGL\\\"\",\"ports\":[17],"
                + "\"at_ms\":2.5}");
  }

  @Test
  void eventLinesKeepSchemaOrder() {
    Schema s = Schema.builder("q").stringAttribute("sym", 8).intAttribute("p", -5, 5).build();
    Event e = Event.builder(s).set("p", -3).set("sym", "A\"B").build();
    assertThat(WorkloadJson.line(e))
        .isEqualTo("{\"kind\":\"event\",\"attributes\":{\"sym\":\"A\\\"B\",\"p\":-3}}");
  }

  @Test
  void writeAllWritesOneLinePerSubscriptionThenEvents() throws IOException {
    Workload w =
        new UniformModel(IntSpace.defaults())
            .generate(new WorkloadSpec(1, 3, 4, 2, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    StringWriter out = new StringWriter();
    long lines = new WorkloadJson(out).writeAll(w);
    assertThat(lines).isEqualTo(7);
    var text = out.toString().lines().toList();
    assertThat(text).hasSize(7);
    assertThat(text.subList(0, 3))
        .allSatisfy(l -> assertThat(l).startsWith("{\"kind\":\"filter\""));
    assertThat(text.subList(3, 7)).allSatisfy(l -> assertThat(l).startsWith("{\"kind\":\"event\""));
    assertThat(out.toString()).endsWith("}\n").doesNotContain("\n ");
  }
}
