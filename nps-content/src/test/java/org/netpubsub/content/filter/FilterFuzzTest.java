package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.fuzz.Fuzz;
import org.netpubsub.content.schema.Schema;

/**
 * Fuzz target: the filter parser and the normaliser. Any text either parses or is refused with
 * {@link InvalidInputException}; a parsed filter prints to text that parses back to the same print,
 * and its normal form (under a small budget, refused typed beyond it) prints to a filter that
 * parses. The seeds are printed random filters of {@link FilterArbitraries} plus one line per
 * production of the grammar (docs/content-model.md), so a new construct is fuzzed once it is in
 * either.
 */
public class FilterFuzzTest {
  private static final Schema SCHEMA = Schemas.QUOTES;

  public static void fuzzerTestOneInput(byte[] data) {
    accept(data);
  }

  static boolean accept(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    Filter f;
    try {
      f = FilterParser.parse(SCHEMA, text);
    } catch (InvalidInputException e) {
      return false;
    }
    String printed = FilterPrinter.print(f);
    assertThat(FilterPrinter.print(FilterParser.parse(SCHEMA, printed))).isEqualTo(printed);
    Dnf dnf;
    try {
      dnf = Normalizer.toDnf(f, 200);
    } catch (InvalidInputException e) {
      return true; // over the budget: refused with the reason
    }
    FilterParser.parse(SCHEMA, FilterPrinter.print(dnf));
    return true;
  }

  static List<byte[]> seeds() {
    List<String> texts =
        new ArrayList<>(
            List.of(
                "price < 10 && symbol == \"ACME\"",
                "!(volume in [-5, 7]) || int.switch_id = 2",
                "symbol prefix \"AB\" and not symbol suffix \"\\u0041\" or symbol contains \"\\\"\"",
                "stock == GOOGL || symbol == GOOGL",
                "count() > 3 over 100ms && sum(price) <= 0x10 over 1s || avg(volume) != 2 over 5m",
                "true && (false || wide >= -9223372036854775808)",
                "((price > 1) && (price < 1000)) || !!(volume != 0)"));
    Random random = new Random(27);
    var filters = FilterArbitraries.filters(SCHEMA, 3).generator(100);
    for (int i = 0; i < 40; i++) {
      texts.add(FilterPrinter.print(filters.next(random).value()));
    }
    return texts.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
  }

  @Example
  void everyTextParsesOrIsRefusedTyped() {
    Fuzz.run("filter", FilterFuzzTest::accept, seeds(), 1500);
  }
}
