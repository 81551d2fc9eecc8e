package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.StringCoding;

/** The worked examples of docs/content-model.md ("Index layouts") and the refusals. */
class IndexLayoutTest {
  private static final String QUOTES =
      """
      name: quotes
      attributes:
        - {name: symbol, type: string, max_length: 8}
        - {name: price, type: int, min: 0, max: 100000}
        - {name: volume, type: int, min: 0, max: 1000000}
        - {name: exchange, type: string, max_length: 4}
      index: [symbol, exchange, price, volume]
      layout:
        bits: ["symbol:3", "exchange:2", "price+volume:4"]
        codings:
          symbol: {kind: dictionary, values: [AAPL, ADBE, AMZN, IBM, MSFT]}
          exchange: {kind: hash}
      """;

  @Test
  void aLayoutOrdersAtMostTheBitsOfADz() {
    assertThat(IndexLayout.MAX_BITS).isEqualTo(Dz.MAX_LENGTH);
  }

  @Test
  void theWorkedExampleOfTheDocs() {
    Schema s = SchemaLoader.parse(QUOTES, "quotes.yaml");
    SpatialIndex index = new SpatialIndex(s, SpatialIndex.defaultLength(s));
    assertThat(index.length()).isEqualTo(9);
    assertThat(index.bitOrder())
        .containsExactly(
            "symbol",
            "symbol",
            "symbol",
            "exchange",
            "exchange",
            "price",
            "volume",
            "price",
            "volume");
    // IBM is value 3 of 5 (+ other): 6 offsets, 3 bits: floor(3 · 8 / 6) = 4 = 100.
    // price 65000: 11 of floor(65000 · 4 / 100001) = 2 = 10; volume 550000: floor(2.2) = 2 = 10.
    Event e =
        Event.builder(s)
            .set("symbol", "IBM")
            .set("price", 65000)
            .set("volume", 550000)
            .set("exchange", "NYSE")
            .build();
    String exchangeBits = Long.toBinaryString(StringCoding.hash("NYSE") >>> 62 | 4).substring(1);
    assertThat(index.dz(e).bits()).isEqualTo("100" + exchangeBits + "1100");
    // symbol prefix "A": AAPL, ADBE, AMZN (offsets 0..2, the cell 0) and "other" (5, the cell 11).
    var cover = index.cover(Normalizer.toDnf(FilterParser.parse(s, "symbol prefix \"A\"")));
    assertThat(cover.members().stream().map(Dz::bits)).containsExactly("0", "11");
  }

  @Test
  void orderedCodingSkipsTheCommonBits() {
    StringAttribute a = new StringAttribute("s", 0, 8);
    String common = StringCoding.commonBits(List.of("IBM", "INTC", "IBX"), 8);
    // 'I' = 01001001, 'B' = 01000010, 'N' = 01001110: they agree on 8 + 4 bits.
    assertThat(common).isEqualTo("010010010100");
    StringCoding.Ordered o = new StringCoding.Ordered(common);
    assertThat(o.sizeMinus1(a)).isEqualTo((1L << 52) - 1);
    assertThat(o.offset(a, "IBM") >>> 48).isEqualTo(0b0010);
    assertThat(o.offset(a, "INTC") >>> 48).isEqualTo(0b1110);
    assertThat(o.offset(a, "AAPL")).isZero(); // below the common bits
    assertThat(o.offset(a, "ZZZ")).isEqualTo(o.sizeMinus1(a)); // above
    long[] ibPrefix = o.prefixRanges(a, "IB");
    assertThat(ibPrefix[0]).isLessThanOrEqualTo(o.offset(a, "IBM"));
    assertThat(ibPrefix[1]).isGreaterThanOrEqualTo(o.offset(a, "IBX"));
    assertThat(ibPrefix[1]).isLessThan(o.offset(a, "INTC"));
  }

  @Test
  void topicLevelsAreCodedInOrder() {
    StringAttribute a = new StringAttribute("t", 0, 64);
    StringCoding.Topic t = new StringCoding.Topic(List.of(3, 3, 2));
    long abc = t.offset(a, "a/b/c");
    assertThat(abc >>> 5).isEqualTo(StringCoding.hash("a") >>> 61);
    assertThat(abc >>> 2 & 7).isEqualTo(StringCoding.hash("b") >>> 61);
    assertThat(abc & 3).isEqualTo(StringCoding.hash("c") >>> 62);
    long[] ab = t.prefixRanges(a, "a/b/"); // a/b/#: the last level free
    assertThat(ab).containsExactly(abc & ~3L, abc | 3L);
    long[] aPartial = t.prefixRanges(a, "a/b"); // "a/bx" too: only the first level fixed
    assertThat(aPartial).containsExactly(abc & ~31L, abc | 31L);
  }

  /** docs/content-model.md's worked example of level dictionaries. */
  @Test
  void topicLevelDictionariesCodeExactlyWithAnEscape() {
    StringAttribute a = new StringAttribute("t", 0, 64);
    StringCoding.Topic t =
        new StringCoding.Topic(
            List.of(2, 2, 2),
            List.of(0, 2, 1),
            List.of(List.of("home", "lab"), List.of("", "temp"), List.of("", "hall", "kitchen")));
    // site home 00, metric temp 01, room kitchen 10: 000110; unseen values take the escape code,
    // clamped to the level's bits: site "farm" 10, room "attic" 11 (3 → 3).
    assertThat(t.offset(a, "home/kitchen/temp")).isEqualTo(0b000110);
    assertThat(t.offset(a, "farm/attic/co2")).isEqualTo(0b101011);
    assertThat(t.offset(a, "lab")).isEqualTo(0b010000); // absent levels: code of ""
    // home/+/temp: room free and last, present rooms only: codes 01..11, one range.
    assertThat(t.patternRanges(a, "home/+/temp")).containsExactly(0b000101L, 0b000111L);
    // home/kitchen/+: metric free before room: its present codes 01 (temp) and 10 (escape).
    assertThat(t.patternRanges(a, "home/kitchen/+"))
        .containsExactly(0b000110L, 0b000110L, 0b001010L, 0b001010L);
    Schema s =
        Schema.builder("t")
            .topicAttribute("topic", 40, 3)
            .layout(new IndexLayout(IndexLayout.expand(List.of("topic:6")), Map.of("topic", t)))
            .build();
    assertThat(SchemaLoader.parse(SchemaWriter.toYaml(s), "t.yaml")).isEqualTo(s);
    assertThat(IndexLayout.codingJson(t))
        .containsEntry("level_values", t.levelValues())
        .containsEntry("level_order", List.of(0, 2, 1));
    String yaml = SchemaWriter.toYaml(s);
    assertThatThrownBy(() -> SchemaLoader.parse(yaml.replace("\"hall\"", "\"a/b\""), "t"))
        .hasMessageContaining(
            "layout.codings.topic: level_values[2]: 'a/b' is not one level (it holds '/'");
    assertThatThrownBy(() -> SchemaLoader.parse(yaml.replace("\"hall\"", "\"zoo\""), "t"))
        .hasMessageContaining("level_values[2]: values must be distinct and sorted");
    assertThatThrownBy(() -> SchemaLoader.parse(yaml.replace("[\"home\", \"lab\"], ", ""), "t"))
        .hasMessageContaining("level_values: 2 lists for 3 levels");
  }

  @Test
  void intCutsMakeTheSubscriptionsBoundsCellBoundaries() {
    Schema s =
        SchemaLoader.parse(
            QUOTES.replace("exchange: {kind: hash}", "price: {kind: cuts, cuts: [50000, 80001]}"),
            "q");
    SpatialIndex index = new SpatialIndex(s, SpatialIndex.defaultLength(s));
    // price offsets: [0, 50000) → 0, [50000, 80001) → 1, [80001, 100000] → 2; 2 bits: 00, 01, 10.
    var cover = index.cover(Normalizer.toDnf(FilterParser.parse(s, "price > 80000")));
    assertThat(cover.members().stream().map(Dz::bits))
        .allMatch(b -> b.length() == 6 && b.endsWith("1")) // exact: price's first bit is 1
        .hasSize(32); // symbol (3 bits) and exchange (2 bits) come first: 2^5 cells
    assertThat(
            index
                .dz(
                    Event.builder(s)
                        .set("symbol", "IBM")
                        .set("price", 80001)
                        .set("volume", 0)
                        .set("exchange", "NYSE")
                        .build())
                .bits())
        .endsWith("1000");
    assertThatThrownBy(
            () ->
                SchemaLoader.parse(
                    QUOTES.replace("exchange: {kind: hash}", "price: {kind: cuts, cuts: [0, 7]}"),
                    "q"))
        .hasMessageContaining("layout.codings.price.cuts: cut 0 is outside (0, 100000]");
  }

  @Test
  void theDocsExampleAddress() {
    Schema s =
        SchemaLoader.parse(
            QUOTES.replace(
                "exchange: {kind: hash}",
                "exchange: {kind: hash}\n    price: {kind: cuts, cuts: [50000, 80001]}"),
            "q");
    SpatialIndex index = new SpatialIndex(s, SpatialIndex.defaultLength(s));
    Event e =
        Event.builder(s)
            .set("symbol", "IBM")
            .set("price", 65000)
            .set("volume", 550000)
            .set("exchange", "NYSE")
            .build();
    assertThat(index.dz(e).bits()).isEqualTo("100010110");
    assertThat(index.address(e).toString()).isEqualTo("ff0e:8b00::/25");
  }

  @Test
  void layoutsRoundTripThroughYaml() {
    Schema s = SchemaLoader.parse(QUOTES, "quotes.yaml");
    Schema back = SchemaLoader.parse(SchemaWriter.toYaml(s), "written.yaml");
    assertThat(back).isEqualTo(s);
    assertThat(back.layout().segments())
        .containsExactly("symbol:3", "exchange:2", "price+volume:4");
    Schema topics =
        Schema.builder("t")
            .stringAttribute("topic", 40)
            .layout(
                new IndexLayout(
                    List.of("topic"), Map.of("topic", new StringCoding.Topic(List.of(4, 4)))))
            .build();
    assertThat(SchemaLoader.parse(SchemaWriter.toYaml(topics), "t.yaml")).isEqualTo(topics);
  }

  @Test
  void unsatisfiableLayoutsAreRefusedNamingTheField() {
    assertThatThrownBy(
            () -> SchemaLoader.parse(QUOTES.replace("exchange:2", "exchange:2\", \"nope:1"), "q"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("layout.bits: 'nope' is not an index dimension");
    assertThatThrownBy(() -> SchemaLoader.parse(QUOTES.replace("MSFT", "MSFT_XXXX"), "q"))
        .hasMessageContaining(
            "layout.codings.symbol.values: 'MSFT_XXXX' is longer than max_length 8");
    assertThatThrownBy(() -> SchemaLoader.parse(QUOTES.replace("symbol:3", "symbol:4"), "q"))
        .hasMessageContaining("layout.bits: 4 bits of 'symbol', more than the 3 that resolve it");
    assertThatThrownBy(() -> SchemaLoader.parse(QUOTES.replace("AAPL, ADBE", "ADBE, AAPL"), "q"))
        .hasMessageContaining("layout.codings.symbol: values must be distinct and sorted");
    assertThatThrownBy(
            () ->
                SchemaLoader.parse(
                    QUOTES.replace("kind: hash", "kind: topic, level_bits: [60, 8]"), "q"))
        .hasMessageContaining("layout.codings.exchange: level_bits: 68 bits in all, at most 64");
    Schema s = SchemaLoader.parse(QUOTES, "quotes.yaml");
    assertThatThrownBy(() -> new SpatialIndex(s, 8))
        .hasMessageContaining("layout.bits: 9 bits, more than the dz length 8");
    assertThatThrownBy(() -> IndexLayout.expand(List.of("price")))
        .hasMessageContaining("layout.bits: 'price' is not name:count");
  }
}
