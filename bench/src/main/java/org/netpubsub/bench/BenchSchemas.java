package org.netpubsub.bench;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/** The schemas and events the benchmarks share: a stock-quote feed. */
final class BenchSchemas {
  private BenchSchemas() {}

  static final Schema QUOTES =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .intAttribute("volume", 0, 1_000_000)
          .stringAttribute("exchange", 4)
          .index(java.util.List.of("price", "volume"))
          .build();

  static Event quote(String symbol, long price, long volume) {
    return Event.builder(QUOTES)
        .set("symbol", symbol)
        .set("price", price)
        .set("volume", volume)
        .set("exchange", "XNAS")
        .payload(new byte[64])
        .build();
  }

  /** A simple filter, one of the kind in PLEROMA's evaluation, and an ssbg-like disjunction. */
  static final String SIMPLE = "price in [1000, 2000] && volume > 500";

  static final String COMPLEX =
      "(symbol == \"IBM\" && price > 1500) || (symbol prefix \"GOO\" && volume < 300)"
          + " || (exchange != \"XNYS\" && !(price < 100 || price > 90000) && volume != 7)";
}
