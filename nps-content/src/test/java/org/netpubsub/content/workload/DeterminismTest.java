package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Same seed, same bytes; other seeds, other workloads; for every model. */
class DeterminismTest {
  static Stream<WorkloadModel> models() {
    return Stream.of(
        new UniformModel(new IntSpace(4, 1024, 0.25, 0.7)),
        new ZipfModel(IntSpace.defaults(), 6, 1.2, List.of(1.0, 0.1)),
        new SsbgModel(10, 1.5, SsbgModel.AttributeChoice.ZIPF),
        new ItchModel(ItchModel.Variant.SIMPLE),
        new ItchModel(ItchModel.Variant.RICH));
  }

  static WorkloadSpec spec(WorkloadModel m, long seed, int subscriptions, long events) {
    return new WorkloadSpec(
        seed,
        subscriptions,
        events,
        m.defaultHosts(),
        m.defaultAssignment(),
        new Arrival(Arrival.Kind.POISSON, 500));
  }

  static String text(Workload w) throws IOException {
    StringWriter out = new StringWriter();
    new WorkloadJson(out).writeAll(w);
    return out.toString();
  }

  @ParameterizedTest
  @MethodSource("models")
  void sameSeedGivesIdenticalBytes(WorkloadModel model) throws IOException {
    String a = text(model.generate(spec(model, 123, 200, 300)));
    String b = text(model.generate(spec(model, 123, 200, 300)));
    assertThat(a).isEqualTo(b);
    assertThat(a.lines()).hasSize(500);
  }

  @ParameterizedTest
  @MethodSource("models")
  void differentSeedsDiffer(WorkloadModel model) throws IOException {
    Workload a = model.generate(spec(model, 1, 50, 50));
    Workload b = model.generate(spec(model, 2, 50, 50));
    assertThat(a.subscriptions()).isNotEqualTo(b.subscriptions());
    assertThat(a.events().toList()).isNotEqualTo(b.events().toList());
  }

  @ParameterizedTest
  @MethodSource("models")
  void eventsAreReplayedIdentically(WorkloadModel model) {
    Workload w = model.generate(spec(model, 5, 0, 100));
    assertThat(w.events().toList()).isEqualTo(w.events().toList()).hasSize(100);
  }

  @ParameterizedTest
  @MethodSource("models")
  void streamsAreIndependent(WorkloadModel model) {
    Workload small = model.generate(spec(model, 9, 10, 40));
    Workload large = model.generate(spec(model, 9, 80, 40));
    // More subscriptions: the first ten are the same and the events do not change.
    assertThat(large.subscriptions().subList(0, 10)).isEqualTo(small.subscriptions());
    assertThat(large.events().toList()).isEqualTo(small.events().toList());
    // Fewer events: a prefix of the same events.
    Workload fewer = model.generate(spec(model, 9, 10, 15));
    assertThat(fewer.events().toList()).isEqualTo(small.events().limit(15).toList());
  }

  @ParameterizedTest
  @MethodSource("models")
  void everyEventAndFilterFitsTheSchema(WorkloadModel model) {
    Workload w = model.generate(spec(model, 77, 500, 500));
    assertThat(w.schema()).isEqualTo(model.schema());
    for (Subscription s : w.subscriptions()) {
      Constraints.parse(s.filter()).checkAgainst(w.schema());
    }
    // Event.Builder.build() validates domains and lengths; check the schema too.
    assertThat(w.events()).allSatisfy(e -> assertThat(e.schema()).isEqualTo(w.schema()));
    assertThat(w.events().count()).isEqualTo(500);
  }
}
