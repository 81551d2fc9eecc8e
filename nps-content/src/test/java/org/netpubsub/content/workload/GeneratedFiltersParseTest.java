package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterParser;

/** Every generated filter is valid filter text for its schema: the real parser accepts it. */
class GeneratedFiltersParseTest {
  static Stream<WorkloadModel> models() {
    return Stream.of(
        new UniformModel(new IntSpace(10, 1024, 0.25, 0.5)),
        new ZipfModel(new IntSpace(4, 1024, 0.5, 1), 8, 1.0, List.of(1.0, 0.5, 0.1, 0.0)),
        new SsbgModel(10, 2.0, SsbgModel.AttributeChoice.ZIPF),
        new SsbgModel(7, 0, SsbgModel.AttributeChoice.UNIFORM),
        new ItchModel(ItchModel.Variant.SIMPLE),
        new ItchModel(ItchModel.Variant.RICH));
  }

  @ParameterizedTest
  @MethodSource("models")
  void everyGeneratedFilterParses(WorkloadModel model) {
    Workload w =
        model.generate(
            new WorkloadSpec(
                99, 2000, 0, model.defaultHosts(), model.defaultAssignment(), Arrival.NONE));
    for (Subscription s : w.subscriptions()) {
      assertThatCode(
              () -> {
                Filter f = FilterParser.parse(w.schema(), s.filter());
                assertThat(f).isNotNull();
              })
          .as(s.filter())
          .doesNotThrowAnyException();
    }
  }
}
