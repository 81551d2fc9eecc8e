package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;

class WarmUpFiltersTest {
  @Test
  void everyFilterParsesOverItsSchemaAndConstrainsEveryIndexDimension() {
    Schema quotes = SchemaFiles.load(Path.of("../examples/schemas/quotes.yaml"));
    WarmUpFilters filters = new WarmUpFilters(quotes, 1);
    Set<String> distinct = new HashSet<>();
    for (int i = 0; i < 300; i++) {
      String f = filters.next(i);
      // the parser refuses a value outside an attribute's domain or an unknown attribute
      assertThat(Normalizer.toDnf(FilterParser.parse(quotes, f))).as(f).isNotNull();
      assertThat(f).as(f).contains("price").contains("volume");
      distinct.add(f);
    }
    assertThat(distinct).hasSizeGreaterThan(250);
  }

  @Test
  void aSchemaOfFullWidthIntegersAndNoIndexStillGivesValidFilters() {
    Schema wide =
        Schema.builder("wide")
            .intAttribute("a", Long.MIN_VALUE, Long.MAX_VALUE)
            .intAttribute("b", -5, -5)
            .build();
    WarmUpFilters filters = new WarmUpFilters(wide, 2);
    for (int i = 0; i < 100; i++) {
      String f = filters.next(i);
      assertThat(Normalizer.toDnf(FilterParser.parse(wide, f))).as(f).isNotNull();
    }
  }

  @Test
  void theSameSeedGivesTheSameFilters() {
    Schema quotes = SchemaFiles.load(Path.of("../examples/schemas/quotes.yaml"));
    WarmUpFilters a = new WarmUpFilters(quotes, 7);
    WarmUpFilters b = new WarmUpFilters(quotes, 7);
    for (int i = 0; i < 30; i++) {
      assertThat(a.next(i)).isEqualTo(b.next(i));
    }
  }
}
