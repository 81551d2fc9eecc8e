package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterMatchCommandTest {
  @TempDir Path dir;
  private final CliRun cli = new CliRun();

  @Test
  void printsTheMatchingEventsOfEachFilter() throws Exception {
    Path events = dir.resolve("e.jsonl");
    Files.writeString(
        events,
        """
        {"kind":"event","attributes":{"symbol":"IBM","price":10,"volume":1,"exchange":"N"}}

        {"kind":"event","attributes":{"symbol":"AAPL","price":500,"volume":1,"exchange":"N"}}
        {"kind":"event","attributes":{"symbol":"IBM","price":900,"volume":1,"exchange":"N"}}
        """);
    int code =
        cli.run(
            "filter",
            "match",
            "--schema",
            "../examples/schemas/quotes.yaml",
            "--events",
            events.toString(),
            "--json",
            "symbol == IBM",
            "price > 100");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.out().lines())
        .containsExactly(
            "{\"kind\":\"match\",\"filter\":\"symbol == IBM\",\"events\":[0,2]}",
            "{\"kind\":\"match\",\"filter\":\"price > 100\",\"events\":[1,2]}");
  }

  @Test
  void aBadEventLineIsBadInputWithItsLine() throws Exception {
    Path events = dir.resolve("e.jsonl");
    Files.writeString(events, "{\"kind\":\"event\",\"attributes\":{\"price\":1}}\n");
    int code =
        cli.run(
            "filter",
            "match",
            "--schema",
            "../examples/schemas/quotes.yaml",
            "--events",
            events.toString(),
            "true");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("line 1");
  }
}
