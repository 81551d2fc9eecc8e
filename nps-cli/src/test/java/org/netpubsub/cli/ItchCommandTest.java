package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.compiler.itch.AddOrders;
import org.netpubsub.compiler.itch.ItchFileReader;
import org.netpubsub.compiler.itch.ItchMessageTypes;

class ItchCommandTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;
  Path rules;
  private final CliRun cli = new CliRun();

  /** One run's output only. */
  private int run(String... args) {
    cli.clear();
    return cli.run(args);
  }

  @BeforeEach
  void rules() throws Exception {
    rules = dir.resolve("itch.rules");
    Files.writeString(
        rules,
        """
        stock == "GOOGL" : fwd(1)
        price > 1000000 && side == "B" : fwd(2)
        """);
  }

  JsonNode json() throws Exception {
    return cli.json();
  }

  @Test
  void generatedFileReplaysToThePortsItsAddOrdersAskFor() throws Exception {
    Path feed = dir.resolve("feed.itch");
    assertThat(
            run(
                "itch",
                "gen",
                "--messages",
                "20000",
                "--seed",
                "5",
                "--out",
                feed.toString(),
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode gen = json();
    assertThat(gen.get("messages").asLong()).isEqualTo(20_000);
    assertThat(gen.get("bytes").asLong()).isEqualTo(Files.size(feed));

    // the truth, straight from the file
    long[] want = new long[3]; // port 1, port 2, add orders
    byte[] bytes = Files.readAllBytes(feed);
    ItchFileReader reader = new ItchFileReader();
    long[] v = new long[4];
    reader.feed(
        bytes,
        0,
        bytes.length,
        (b, off, len) -> {
          if (ItchMessageTypes.isAddOrder(b[off])) {
            assertThat(AddOrders.decode(b, off, len, v)).isNull();
            want[2]++;
            if (AddOrders.symbol(v[0]).equals("GOOGL")) {
              want[0]++;
            }
            if (v[1] > 1_000_000 && v[3] == 'B') {
              want[1]++;
            }
          }
        });
    assertThat(reader.finish()).isNull();
    assertThat(want[0]).isPositive();
    assertThat(want[1]).isPositive();

    assertThat(run("itch", "replay", feed.toString(), "--rules", rules.toString(), "--json"))
        .as(cli.err())
        .isZero();
    JsonNode r = json();
    assertThat(r.get("messages").asLong()).isEqualTo(20_000);
    assertThat(r.get("add_orders").asLong()).isEqualTo(want[2]);
    assertThat(r.get("other_messages").asLong()).isEqualTo(20_000 - want[2]);
    assertThat(r.get("file_end").asText()).isEqualTo("complete");
    assertThat(r.get("ports")).hasSize(2);
    assertThat(r.get("ports").get(0).get("port").asInt()).isEqualTo(1);
    assertThat(r.get("ports").get(0).get("messages").asLong()).isEqualTo(want[0]);
    assertThat(r.get("ports").get(1).get("messages").asLong()).isEqualTo(want[1]);
    assertThat(r.get("messages_per_second").asLong()).isPositive();
    for (JsonNode p : r.get("ports")) {
      // every packet a header, every message a 38- or 42-byte block; the end of session counts
      long messages = p.get("messages").asLong();
      long packets = p.get("packets").asLong();
      assertThat(packets).isBetween(1L, messages + 1);
      assertThat(p.get("bytes").asLong())
          .isBetween(20 * packets + 38 * messages, 20 * packets + 42 * messages);
    }
    r.get("malformed").forEach(n -> assertThat(n.asLong()).isZero());

    // the synthetic feed of the same seed is the same feed
    JsonNode fromFile = r;
    assertThat(
            run(
                "itch",
                "replay",
                "--synthetic",
                "20000",
                "--seed",
                "5",
                "--rules",
                rules.toString(),
                "--json"))
        .isZero();
    assertThat(json().get("ports")).isEqualTo(fromFile.get("ports"));
    assertThat(json().get("source").asText()).isEqualTo("synthetic");
  }

  @Test
  void aTruncatedGzipFileIsReplayedUpToItsLastWholeMessage() throws Exception {
    Path feed = dir.resolve("feed.itch");
    assertThat(run("itch", "gen", "--messages", "3000", "--out", feed.toString())).isZero();
    assertThat(cli.out()).contains("3,000 messages");
    byte[] bytes = Files.readAllBytes(feed);
    Path cut = dir.resolve("cut.itch.gz");
    try (var o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(cut))) {
      o.write(Arrays.copyOf(bytes, bytes.length - 5));
    }
    assertThat(
            run(
                "itch",
                "replay",
                cut.toString(),
                "--rules",
                rules.toString(),
                "--others",
                "all-ports",
                "--batch",
                "7",
                "--write",
                "--json"))
        .as(cli.err())
        .isZero();
    JsonNode r = json();
    assertThat(r.get("messages").asLong()).isEqualTo(2999);
    assertThat(r.get("file_end").asText()).isEqualTo("block_beyond_packet");
    assertThat(r.get("packets_in").asLong()).isEqualTo((2999 + 6) / 7 + 1);
    // every non-Add-Order message goes to both ports
    long others = r.get("other_messages").asLong();
    for (JsonNode p : r.get("ports")) {
      assertThat(p.get("messages").asLong()).isGreaterThanOrEqualTo(others);
    }
    long bytesOut = 0;
    for (JsonNode p : r.get("ports")) {
      bytesOut += p.get("bytes").asLong();
    }
    assertThat(r.get("written_bytes").asLong()).isEqualTo(bytesOut);
  }

  @Test
  void progressGoesToStderrAndTextToStdout() throws Exception {
    assertThat(
            run(
                "itch",
                "replay",
                "--synthetic",
                "200000",
                "--itch-model",
                "simple",
                "--rules",
                rules.toString(),
                "--progress-ms",
                "1",
                "--json"))
        .isZero();
    String first = cli.err().lines().findFirst().orElseThrow();
    JsonNode progress = MAPPER.readTree(first);
    assertThat(progress.get("kind").asText()).isEqualTo("progress");
    assertThat(progress.get("messages").asLong()).isBetween(1L, 200_000L);
    assertThat(run("itch", "replay", "--synthetic", "500", "--rules", rules.toString())).isZero();
    assertThat(cli.out()).contains("500 messages").contains("messages/s").contains("port");
  }

  @Test
  void badInputExitsTwoAndSaysWhy() throws Exception {
    assertThat(run("itch", "replay", "--rules", rules.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("give an ITCH FILE or --synthetic N");
    assertThat(run("itch", "replay", "x.itch", "--synthetic", "5", "--rules", rules.toString()))
        .isEqualTo(2);
    assertThat(
            run("itch", "replay", dir.resolve("none.itch").toString(), "--rules", rules.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("no such file");
    assertThat(
            run("itch", "replay", "--synthetic", "5", "--batch", "0", "--rules", rules.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--batch");
    assertThat(
            run("itch", "replay", "--synthetic", "5", "--mtu", "80", "--rules", rules.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--mtu");
    assertThat(
            run("itch", "replay", "--synthetic", "5", "--others", "x", "--rules", rules.toString()))
        .isEqualTo(2);
    assertThat(
            run(
                "itch",
                "replay",
                "--synthetic",
                "5",
                "--session",
                "much too long",
                "--rules",
                rules.toString()))
        .isEqualTo(2);
    Path notGzip = dir.resolve("plain.itch.gz");
    Files.write(notGzip, new byte[] {0, 12, 'S'});
    assertThat(run("itch", "replay", notGzip.toString(), "--rules", rules.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("cannot read ITCH file");
    Path bad = dir.resolve("bad.rules");
    Files.writeString(bad, "volume > 3 : fwd(1)\n");
    assertThat(run("itch", "replay", "--synthetic", "5", "--rules", bad.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("volume");
    assertThat(run("itch", "gen", "--messages", "-1", "--out", dir.resolve("f").toString()))
        .isEqualTo(2);
    assertThat(
            run(
                "itch",
                "gen",
                "--messages",
                "5",
                "--itch-model",
                "odd",
                "--out",
                dir.resolve("f").toString()))
        .isEqualTo(2);
  }
}
