package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

class ItchModelTest {
  private static final Pattern SIMPLE =
      Pattern.compile("stock == \"([A-Z]{2,5})\" && price > (\\d+)");

  private static Workload generate(ItchModel m, int subscriptions, long events) {
    return m.generate(
        new WorkloadSpec(
            17, subscriptions, events, m.defaultHosts(), m.defaultAssignment(), Arrival.NONE));
  }

  @Test
  void schemaIsTheItchAddOrder() {
    ItchModel m = new ItchModel(ItchModel.Variant.RICH);
    assertThat(m.schema().attributes())
        .containsExactly(
            new StringAttribute("stock", 0, 8),
            new IntAttribute("price", 1, 0, 4294967295L),
            new IntAttribute("shares", 2, 0, 4294967295L),
            new StringAttribute("side", 3, 1));
  }

  @Test
  void simpleFiltersAreCamusScalabilityFilters() {
    ItchModel m = new ItchModel(ItchModel.Variant.SIMPLE);
    Workload w = generate(m, 3000, 0);
    HashSet<String> stocks = new HashSet<>();
    HashSet<Integer> ports = new HashSet<>();
    for (Subscription s : w.subscriptions()) {
      Matcher match = SIMPLE.matcher(s.filter());
      assertThat(match.matches()).as(s.filter()).isTrue();
      stocks.add(match.group(1));
      long price = Long.parseLong(match.group(2));
      assertThat(price).isStrictlyBetween(0L, 1000 * ItchModel.PRICE_SCALE);
      assertThat(price % 100).isZero(); // whole cents
      assertThat(s.host()).isEmpty();
      assertThat(s.ports()).hasSize(1);
      ports.add(s.ports().get(0));
    }
    assertThat(stocks).hasSize(100).isEqualTo(new HashSet<>(m.symbols()));
    assertThat(ports).allSatisfy(p -> assertThat(p).isBetween(1, 200)).hasSizeGreaterThan(190);
  }

  @Test
  void richFiltersFollowCamusWeights() {
    ItchModel m = new ItchModel(ItchModel.Variant.RICH);
    int n = 20_000;
    Map<String, Integer> ops = new HashMap<>();
    int shares = 0;
    Map<String, long[]> priceBand = new HashMap<>(); // stock -> {min, max} of price constants
    List<String> problems = new ArrayList<>();
    for (Subscription s : generate(m, n, 0).subscriptions()) {
      List<Constraints.Constraint> c = Constraints.parse(s.filter()).all();
      Constraints.Constraint price = c.get(1);
      long lo = price.value();
      long hi = price.op().equals("in") ? price.high() : lo;
      boolean shape =
          c.get(0).attribute().equals("stock")
              && c.get(0).op().equals("==")
              && price.attribute().equals("price")
              && lo <= hi
              && (c.size() == 2
                  || c.size() == 3
                      && c.get(2).attribute().equals("shares")
                      && c.get(2).op().equals(">")
                      && c.get(2).value() % 100 == 0);
      if (!shape) {
        problems.add(s.filter());
      }
      ops.merge(price.op(), 1, Integer::sum);
      long[] band = priceBand.computeIfAbsent(c.get(0).text(), k -> new long[] {Long.MAX_VALUE, 0});
      band[0] = Math.min(band[0], lo);
      band[1] = Math.max(band[1], hi);
      if (c.size() == 3) {
        shares++;
      }
    }
    assertThat(problems).isEmpty();
    assertThat(ops.get("<") / (double) n).isCloseTo(0.40, within(0.03));
    assertThat(ops.get(">") / (double) n).isCloseTo(0.40, within(0.03));
    assertThat(ops.get("in") / (double) n).isCloseTo(0.20, within(0.03));
    assertThat(shares / (double) n).isCloseTo(0.35, within(0.03));
    // Every constant lies within ±10 % of its stock's average: max/min <= 1.1/0.9 (+ a cent).
    for (var e : priceBand.entrySet()) {
      long[] band = e.getValue();
      assertThat((double) band[1] / band[0]).as(e.getKey()).isLessThanOrEqualTo(1.1 / 0.9 + 1e-3);
      assertThat(band[0]).isGreaterThanOrEqualTo(9 * ItchModel.PRICE_SCALE);
      assertThat(band[1]).isLessThanOrEqualTo(198 * ItchModel.PRICE_SCALE);
    }
  }

  @Test
  void eventStocksAreZipfByRank() {
    ItchModel m = new ItchModel(ItchModel.Variant.RICH);
    int n = 60_000;
    Map<String, Integer> counts = new HashMap<>();
    Map<String, long[]> prices = new HashMap<>();
    int buys = 0;
    var it = generate(m, 0, n).eventIterator();
    while (it.hasNext()) {
      Event e = it.next();
      counts.merge(e.stringValue(0), 1, Integer::sum);
      long[] band = prices.computeIfAbsent(e.stringValue(0), k -> new long[] {Long.MAX_VALUE, 0});
      band[0] = Math.min(band[0], e.intValue(1));
      band[1] = Math.max(band[1], e.intValue(1));
      long shares = e.intValue(2);
      if (shares % 100 != 0 || shares < 100 || shares > 10_000) {
        throw new AssertionError("shares " + shares);
      }
      if (e.stringValue(3).equals("B")) {
        buys++;
      }
    }
    List<String> symbols = m.symbols();
    assertThat(symbols.get(0)).isEqualTo("GOOGL");
    int first = counts.get("GOOGL");
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(first));
    assertThat(first / (double) n).isCloseTo(new Zipf(1000, 1).probability(1), within(0.01));
    for (int r = 2; r <= 6; r++) {
      int c = counts.get(symbols.get(r - 1));
      assertThat(c).isLessThan(counts.get(symbols.get(r - 2)));
      assertThat(c * (double) r / first).as("rank %d", r).isCloseTo(1.0, within(0.15));
    }
    assertThat(buys / (double) n).isCloseTo(0.5, within(0.01));
    for (long[] band : prices.values()) {
      assertThat((double) band[1] / band[0]).isLessThanOrEqualTo(1.1 / 0.9 + 1e-3);
    }
  }

  @Test
  void tickersAreStableUniqueAndShort() {
    List<String> t = Tickers.first(2000);
    assertThat(t).hasSize(2000).doesNotHaveDuplicates();
    assertThat(t.subList(0, 3)).containsExactly("GOOGL", "AAPL", "MSFT");
    assertThat(t).allSatisfy(s -> assertThat(s).matches("[A-Z]{2,5}"));
    assertThat(t.subList(60, 2000)).allSatisfy(s -> assertThat(s).matches("[A-Z]{3,5}"));
    assertThat(Tickers.first(500)).isEqualTo(t.subList(0, 500));
    assertThat(Tickers.first(10)).isEqualTo(t.subList(0, 10));
    assertThatThrownBy(() -> Tickers.first(0)).hasMessageContaining("symbols");
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new ItchModel(ItchModel.Variant.RICH, 10, -2))
        .hasMessageContaining("exponent");
    assertThatThrownBy(() -> ItchModel.Variant.parse("fancy"))
        .hasMessageContaining("simple or rich");
  }
}
