package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.schema.StringCoding;

/**
 * A string attribute's {@code values: [...]} (docs/content-model.md "Declared values"): an index
 * dimension declaring them is coded by their dictionary unless the layout codes it otherwise, and
 * bad values are refused naming the attribute.
 */
class DeclaredValuesTest {
  private static final String QUOTES =
      """
      name: quotes
      attributes:
        - {name: exchange, type: string, max_length: 6, values: [NYSE, NASDAQ, AMEX]}
        - {name: price, type: int, min: 0, max: 100000}
      index: [exchange, price]
      """;

  @Test
  void declaredValuesOfAnIndexDimensionBecomeItsDictionary() {
    Schema s = SchemaLoader.parse(QUOTES, "q.yaml");
    assertThat(s.layout().coding("exchange"))
        .isEqualTo(new StringCoding.Dictionary(List.of("AMEX", "NASDAQ", "NYSE")));
    assertThat(SchemaLoader.parse(SchemaWriter.toYaml(s), "written.yaml")).isEqualTo(s);
    // 4 offsets (3 values and "other") are resolved by 2 bits: NYSE is offset 2 → 10
    SpatialIndex index = new SpatialIndex(s, 2 + 17);
    Event nyse = Event.builder(s).set("exchange", "NYSE").set("price", 0).build();
    assertThat(index.dz(nyse).bits()).startsWith("10");
    // exchange == "NYSE" is one exchange cell; every matching event lies in the cover
    var dnf = Normalizer.toDnf(FilterParser.parse(s, "exchange == \"NYSE\" && price < 100"));
    DzSet cover = index.cover(dnf);
    for (String x : List.of("NYSE", "AMEX", "LSE", "")) {
      for (long p : new long[] {0, 99, 100, 100000}) {
        Event e = Event.builder(s).set("exchange", x).set("price", p).build();
        if (FilterEvaluator.matches(dnf, e)) {
          assertThat(cover.covers(index.dz(e))).as(x + " " + p).isTrue();
        }
      }
    }
    assertThat(cover.members()).allMatch(d -> d.bits().startsWith("10"));
  }

  @Test
  void theWorkedExampleOfTheDocs() {
    Schema s = SchemaLoader.parse(QUOTES, "q.yaml");
    SpatialIndex index = new SpatialIndex(s, 4);
    Event e = Event.builder(s).set("exchange", "NYSE").set("price", 65000).build();
    assertThat(index.dz(e).bits()).isEqualTo("1100");
    assertThat(ContentAddress.of(index.dz(e)).toString()).startsWith("ff0e:c000::");
    DzSet cover = index.cover(Normalizer.toDnf(FilterParser.parse(s, "exchange == \"NYSE\"")));
    assertThat(cover.members().stream().map(Dz::bits)).containsExactly("100", "110");
  }

  @Test
  void theLayoutsOwnCodingWinsAndNonIndexAttributesAreNotCoded() {
    Schema hashed =
        SchemaLoader.parse(
            QUOTES + "layout:\n  bits: [\"exchange:2\"]\n  codings:\n    exchange: {kind: hash}\n",
            "q.yaml");
    assertThat(hashed.layout().coding("exchange")).isEqualTo(new StringCoding.Hash());
    Schema unindexed = SchemaLoader.parse(QUOTES.replace("[exchange, price]", "[price]"), "q");
    assertThat(unindexed.layout().isRoundRobin()).isTrue();
  }

  @Test
  void badValuesAreRefusedNamingTheAttribute() {
    refused("[NYSE, [X]]", "attribute 'exchange'.values: each value must be a string");
    refused("[NYSE, ~]", "attribute 'exchange'.values: each value must be a string");
    refused("[NYSE, TOOLONGX]", "'TOOLONGX' is longer than max_length 6");
    refused("[NYSE, NYSE]", "'NYSE' is listed twice");
    refused("[]", "attribute 'exchange'.values must be a non-empty list of strings");
    refused("NYSE", "attribute 'exchange'.values must be a non-empty list of strings");
    assertThatThrownBy(
            () ->
                SchemaLoader.parse(
                    QUOTES
                        .replace(", values: [NYSE, NASDAQ, AMEX]", "")
                        .replace("max: 100000}", "max: 100000, values: [1]}"),
                    "q"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("values");
  }

  private static void refused(String values, String reason) {
    assertThatThrownBy(
            () -> SchemaLoader.parse(QUOTES.replace("[NYSE, NASDAQ, AMEX]", values), "q.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(reason);
  }
}
