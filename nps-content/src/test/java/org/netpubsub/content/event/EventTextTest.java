package org.netpubsub.content.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.schema.Schema;

class EventTextTest {
  private final Schema quotes =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 0, 100_000)
          .intAttribute("volume", 0, 1_000_000)
          .stringAttribute("exchange", 4)
          .build();

  private Event ibm(long price) {
    return Event.builder(quotes)
        .set("symbol", "IBM")
        .set("price", price)
        .set("volume", 10)
        .set("exchange", "NYSE")
        .build();
  }

  @Test
  void assignmentsInAnyOrder() {
    assertThat(
            EventText.fromAssignments(
                quotes, List.of("price=12", "exchange=NYSE", "symbol=IBM", "volume=10")))
        .isEqualTo(ibm(12));
  }

  @Test
  void assignmentValuesAreLiteralExceptSurroundingQuotes() {
    Event e =
        EventText.fromAssignments(
            quotes, List.of("symbol=a=b c", "price=+7", "volume=0", "exchange=\"x y\""));
    assertThat(e.stringValue(0)).isEqualTo("a=b c");
    assertThat(e.intValue(1)).isEqualTo(7);
    assertThat(e.stringValue(3)).isEqualTo("x y");
    assertThat(
            EventText.fromAssignments(
                    quotes, List.of("symbol=", "price=0", "volume=0", "exchange=\"\""))
                .stringValue(3))
        .isEmpty();
  }

  @Test
  void assignmentErrorsNameTheWordAndPointAtIt() {
    InvalidInputException e =
        assignError("symbol=IBM", "pryce=12", "volume=1", "exchange=X", "price=1");
    assertThat(e.reason())
        .isEqualTo(
            "unknown attribute 'pryce'; the attributes of quotes are symbol, price, volume,"
                + " exchange");
    assertThat(e.position()).contains(new SourcePosition(1, 12));
    assertThat(e.render())
        .endsWith("symbol=IBM pryce=12 volume=1 exchange=X price=1\n             ^");

    assertThat(assignError("symbol=IBM", "price=1", "price=2").reason())
        .isEqualTo("'price=2': price is already given ('price=1')");
    assertThat(assignError("symbol=IBM", "price").reason())
        .isEqualTo("expected name=value, got 'price'");
    assertThat(assignError("=5").reason()).isEqualTo("expected name=value, got '=5'");
    assertThat(assignError("price=12").reason())
        .isEqualTo(
            "missing attributes symbol, volume, exchange; every attribute of quotes needs a value");
    assertThat(assignError("symbol=A", "price=1", "volume=2").reason())
        .isEqualTo("missing attribute exchange; every attribute of quotes needs a value");
    InvalidInputException notInt = assignError("symbol=A", "price=12.5");
    assertThat(notInt.reason()).isEqualTo("'price=12.5': price needs an integer, got '12.5'");
    assertThat(notInt.position()).contains(new SourcePosition(1, 16));
    assertThat(assignError("price=100001").reason())
        .isEqualTo("'price=100001': 100001 is outside the domain [0, 100000] of price");
    assertThat(assignError("price=99999999999999999999").reason())
        .contains("is outside the domain [0, 100000] of price");
    assertThat(assignError("symbol=ABCDEFGHI").reason())
        .isEqualTo(
            "'symbol=ABCDEFGHI': the value is 9 bytes of UTF-8, longer than max_length 8 of symbol");
    assertThat(assignError("symbol=ÄÄÄÄÄ").reason()).contains("10 bytes of UTF-8");
  }

  @Test
  void jsonLine() {
    assertThat(
            EventText.fromJson(
                quotes,
                "{\"kind\":\"event\",\"attributes\":{\"price\":12,\"symbol\":\"IBM\","
                    + "\"volume\":10,\"exchange\":\"NYSE\"}}"))
        .isEqualTo(ibm(12));
    Event full =
        EventText.fromJson(
            quotes,
            "{\"attributes\":{\"price\":12,\"symbol\":\"IBM\",\"volume\":10,\"exchange\":\"NYSE\"},"
                + "\"payload\":\"aGk=\",\"publisher\":18446744073709551615,\"sequence\":5,"
                + "\"timestamp_ns\":-3}");
    assertThat(full.payload()).containsExactly('h', 'i');
    assertThat(full.publisherId()).isEqualTo(-1L);
    assertThat(full.sequence()).isEqualTo(5);
    assertThat(full.timestampNanos()).isEqualTo(-3);
  }

  @Test
  void jsonObjectForm() throws Exception {
    Map<String, Object> json = EventText.toJsonObject(ibm(12));
    assertThat(new ObjectMapper().writeValueAsString(json))
        .isEqualTo(
            "{\"kind\":\"event\",\"attributes\":{\"symbol\":\"IBM\",\"price\":12,\"volume\":10,"
                + "\"exchange\":\"NYSE\"}}");
    Event withHeader =
        ibm(12).toBuilder().payload(new byte[] {'h', 'i'}).publisherId(-1).sequence(5).build();
    assertThat(new ObjectMapper().writeValueAsString(EventText.toJsonObject(withHeader)))
        .endsWith("\"payload\":\"aGk=\",\"publisher\":18446744073709551615,\"sequence\":5}");
  }

  @Test
  void jsonErrors() {
    String attrs = "\"symbol\":\"IBM\",\"price\":12,\"volume\":10,\"exchange\":\"NYSE\"";
    assertThat(jsonError("{\"attributes\":{" + attrs + "},\"extra\":1}").reason())
        .isEqualTo(
            "unknown key 'extra' in an event; expected kind, attributes, payload, publisher,"
                + " sequence, timestamp_ns");
    assertThat(jsonError("{\"kind\":\"filter\",\"attributes\":{" + attrs + "}}").reason())
        .isEqualTo("kind must be \"event\", got \"filter\"");
    assertThat(jsonError("{\"attributes\":{" + attrs + ",\"bid\":1}}").reason())
        .startsWith("unknown attribute 'bid'");
    assertThat(jsonError("{\"attributes\":{\"symbol\":\"IBM\"}}").reason())
        .isEqualTo(
            "missing attributes price, volume, exchange; every attribute of quotes needs a value");
    assertThat(jsonError("{\"attributes\":{" + attrs.replace("12", "\"12\"") + "}}").reason())
        .isEqualTo("price must be a JSON integer, got \"12\"");
    assertThat(jsonError("{\"attributes\":{" + attrs.replace("12", "12.0") + "}}").reason())
        .isEqualTo("price must be a JSON integer, got 12.0");
    assertThat(jsonError("{\"attributes\":{" + attrs.replace("\"IBM\"", "7") + "}}").reason())
        .isEqualTo("symbol must be a JSON string, got 7");
    assertThat(jsonError("{\"attributes\":{" + attrs.replace("12", "-1") + "}}").reason())
        .isEqualTo("price = -1 is outside the domain [0, 100000] of price");
    assertThat(jsonError("{\"attributes\":{" + attrs.replace("IBM", "\\ud800") + "}}").reason())
        .isEqualTo("symbol is not valid Unicode (an unpaired surrogate)");
    assertThat(jsonError("{\"attributes\":{" + attrs + "},\"payload\":\"***\"}").reason())
        .startsWith("payload is not valid base64");
    assertThat(jsonError("{\"attributes\":{" + attrs + "},\"sequence\":-1}").reason())
        .isEqualTo("sequence must be an integer in [0, 2^64), got -1");
    assertThat(
            jsonError("{\"attributes\":{" + attrs + "},\"publisher\":18446744073709551616}")
                .reason())
        .startsWith("publisher must be an integer in [0, 2^64)");
    assertThat(
            jsonError("{\"attributes\":{" + attrs + "},\"timestamp_ns\":9223372036854775808}")
                .reason())
        .startsWith("timestamp_ns must be a 64-bit integer");
    assertThat(jsonError("{\"attributes\":[1]}").reason())
        .isEqualTo("attributes must be a JSON object of name: value, got [1]");
    assertThat(jsonError("{}").reason()).startsWith("attributes must be a JSON object");
    assertThat(jsonError("[1,2]").reason()).startsWith("an event is a JSON object");
    assertThat(jsonError("").reason()).endsWith("got nothing");
    InvalidInputException syntax = jsonError("{\"attributes\": {\"price\": 12,, }}");
    assertThat(syntax.reason()).startsWith("invalid JSON: ");
    assertThat(syntax.position()).contains(new SourcePosition(1, 29));
    assertThat(jsonError("{\"attributes\":{" + attrs + "}} {}").reason())
        .startsWith("invalid JSON");
    assertThat(jsonError("{\"attributes\":{" + attrs + ",\"price\":13}}").reason())
        .contains("Duplicate field 'price'");
  }

  private InvalidInputException assignError(String... words) {
    try {
      EventText.fromAssignments(quotes, List.of(words));
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("accepted " + List.of(words));
  }

  private InvalidInputException jsonError(String line) {
    try {
      EventText.fromJson(quotes, line);
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("accepted " + line);
  }
}
