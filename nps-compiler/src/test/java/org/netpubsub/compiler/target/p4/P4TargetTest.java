package org.netpubsub.compiler.target.p4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.FieldKind;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.schema.Schema;

/**
 * A tiny pipeline worked out by hand: an lpm field {@code a} (4 bits) and an exact field {@code c}
 * (3 bits) whose table needs defaults, so a ternary key.
 *
 * <pre>
 *   a > 3   : fwd(1)      a ∈ [4, 15] = 0100/2 ∪ 1000/1;  a ∈ [0, 3] = 0000/2
 *   c != 5  : fwd(2)      c == 5 (value, priority 2) below which any c (default, priority 1)
 * </pre>
 *
 * From state 0, a /2 or /1 prefix leads to S1 (a ≤ 3) or S2 (a ≥ 4). In the c table, S1 has c = 5 →
 * S1 (a dead end: no leaf entry, dropped) above its default → {2}; S2 has c = 5 → {1} above its
 * default → {1, 2}.
 */
class P4TargetTest {
  static final Schema TINY =
      Schema.builder("tiny").intAttribute("a", 0, 15).intAttribute("c", 0, 7).build();
  static final MessageSpec SPEC =
      MessageSpec.of(
          "tiny",
          TINY,
          List.of(
              new QueryField("a", FieldKind.INT, 4, MatchKind.LPM, (byte) 0, 0, 0),
              new QueryField("c", FieldKind.INT, 3, MatchKind.EXACT, (byte) 0, 0, 1)));
  static final ObjectMapper JSON = new ObjectMapper();

  static Compilation compile(MessageSpec spec, String rules) {
    return RuleCompiler.compile(spec, RuleParser.parse(spec.schema(), rules), CompileOptions.EXACT);
  }

  @Test
  void handComputedTablesEntriesAndForwarding() throws Exception {
    Compilation c = compile(SPEC, "a > 3 : fwd(1)\nc != 5 : fwd(2)\n");
    Map<String, String> files = P4Target.emit(c);
    assertThat(files).containsOnlyKeys("camus.p4", "entries.json", "groups.json");

    JsonNode entries = JSON.readTree(files.get("entries.json")).get("table_entries");
    List<JsonNode> a = byTable(entries, "CamusIngress.field_a");
    List<JsonNode> cc = byTable(entries, "CamusIngress.field_c");
    List<JsonNode> leaf = byTable(entries, "CamusIngress.leaf");
    assertThat(a).hasSize(3).allMatch(e -> !e.has("priority"));
    assertThat(a)
        .extracting(e -> e.get("match").get("hdr.tiny.a").get("lpm").toString())
        .containsExactly(
            "{\"value\":\"0\",\"prefix_len\":2}",
            "{\"value\":\"4\",\"prefix_len\":2}",
            "{\"value\":\"8\",\"prefix_len\":1}");
    assertThat(a)
        .allMatch(
            e ->
                e.get("match")
                    .get("meta.camus_state")
                    .toString()
                    .equals("{\"exact\":{\"value\":\"0\"}}"));
    String s1 = a.get(0).get("action").get("params").get("s").asText();
    String s2 = a.get(1).get("action").get("params").get("s").asText();
    assertThat(a.get(2).get("action").get("params").get("s").asText()).isEqualTo(s2);
    assertThat(s1).isNotEqualTo(s2);
    assertThat(a.get(0).get("action").get("name").asText()).isEqualTo("CamusIngress.set_state");

    assertThat(cc).hasSize(4);
    List<JsonNode> values = cc.stream().filter(e -> e.get("match").has("hdr.tiny.c")).toList();
    assertThat(values).hasSize(2).allMatch(e -> e.get("priority").asInt() == 2);
    assertThat(values)
        .extracting(e -> e.get("match").get("hdr.tiny.c").toString())
        .containsOnly("{\"ternary\":{\"value\":\"5\",\"mask\":\"7\"}}");
    assertThat(values).extracting(P4TargetTest::state).containsExactlyInAnyOrder(s1, s2);
    JsonNode dead = values.stream().filter(e -> state(e).equals(s1)).findFirst().orElseThrow();
    assertThat(dead.get("action").get("params").get("s").asText()).isEqualTo(s1);
    List<JsonNode> defaults = cc.stream().filter(e -> !e.get("match").has("hdr.tiny.c")).toList();
    assertThat(defaults).hasSize(2).allMatch(e -> e.get("priority").asInt() == 1);
    assertThat(defaults).extracting(P4TargetTest::state).containsExactlyInAnyOrder(s1, s2);

    assertThat(leaf)
        .hasSize(3)
        .allMatch(e -> e.get("action").get("name").asText().equals("CamusIngress.set_mgid"));
    JsonNode groups = JSON.readTree(files.get("groups.json")).get("multicast_group_entries");
    List<String> ports = new ArrayList<>();
    groups.forEach(g -> ports.add(g.get("replicas").findValuesAsText("egress_port").toString()));
    assertThat(ports).containsExactlyInAnyOrder("[1]", "[2]", "[1, 2]");
    assertThat(groups.get(0).get("replicas").get(0).get("instance").asInt()).isEqualTo(1);

    P4EntriesInterpreter sw =
        P4EntriesInterpreter.of(SPEC, files.get("entries.json"), files.get("groups.json"));
    assertThat(sw.ports(new long[] {2, 5})).isEmpty();
    assertThat(sw.ports(new long[] {2, 0})).containsExactly(2);
    assertThat(sw.ports(new long[] {9, 5})).containsExactly(1);
    assertThat(sw.ports(new long[] {4, 5})).containsExactly(1);
    assertThat(sw.ports(new long[] {15, 1})).containsExactly(1, 2);
    assertThat(sw.ports(new long[] {3, 7})).containsExactly(2);
  }

  @Test
  void theControlHasEveryTableKeyAndAction() {
    Compilation c = compile(SPEC, "a > 3 : fwd(1)\nc != 5 : fwd(2)\n");
    String p4 = P4Target.emit(c).get("camus.p4");
    int bits = c.pipeline().stateBits();
    assertThat(p4)
        .contains("#include <v1model.p4>")
        .contains(
            "control CamusIngress(inout headers hdr,\n"
                + "                     inout metadata meta,\n"
                + "                     inout standard_metadata_t standard_metadata) {")
        .contains("action set_state(bit<" + bits + "> s) {\n        meta.camus_state = s;")
        .contains("action set_mgid(bit<16> g) {\n        standard_metadata.mcast_grp = g;")
        .contains("mark_to_drop(standard_metadata);")
        .contains(
            "    table field_a {\n"
                + "        key = {\n"
                + "            meta.camus_state : exact;\n"
                + "            hdr.tiny.a : lpm;\n"
                + "        }\n"
                + "        actions = { set_state; NoAction; }\n"
                + "        default_action = NoAction();\n"
                + "        size = 16;\n")
        .contains("            hdr.tiny.c : ternary;\n")
        .contains(
            "    table leaf {\n"
                + "        key = {\n"
                + "            meta.camus_state : exact;\n"
                + "        }\n"
                + "        actions = { set_mgid; camus_drop; }\n"
                + "        default_action = camus_drop();\n")
        .contains(
            "    apply {\n"
                + "        meta.camus_state = 0;\n"
                + "        field_a.apply();\n"
                + "        field_c.apply();\n"
                + "        leaf.apply();\n"
                + "    }\n}\n")
        .contains("//     bit<4> a;  // query field a, lpm match")
        .contains("meta.camus_state: bit<" + bits + ">")
        .doesNotContain("register<");
    assertThat(braces(p4)).isZero();
  }

  @Test
  void builtInSpecsGetKeyKindsAndEscapedNames() {
    String two =
        "stock == \"GOOGL\" && price > 100 : fwd(1)\nstock == \"MSFT\" && side == \"B\" : fwd(2)\n";
    String p4 = P4Target.emit(compile(BuiltinSpecs.itch(), two)).get("camus.p4");
    assertThat(p4)
        .contains("hdr.itch.stock : exact;")
        .contains("hdr.itch.price : range;")
        .contains("hdr.itch.side : exact;")
        .contains("table field_shares {");
    // a rule that leaves stock open gives the stock table a default: ternary with priorities
    String three = two + "price < 5 : fwd(3)\n";
    assertThat(P4Target.emit(compile(BuiltinSpecs.itch(), three)).get("camus.p4"))
        .contains("hdr.itch.stock : ternary;");
    // "int" is a P4 keyword and "int.switch_id" no identifier
    Compilation ints = compile(BuiltinSpecs.intReports(), "int.hop_latency > 100 : fwd(3)\n");
    assertThat(P4Target.emit(ints).get("camus.p4"))
        .contains("hdr.int_.int_hop_latency : range;")
        .contains("table field_int_switch_id {");
    assertThat(P4Names.identifier("state")).isEqualTo("state_");
    assertThat(P4Names.identifier("9lives")).isEqualTo("_9lives");
  }

  @Test
  void valuesAboveTwoToTheSixtyThreeAreDecimalStrings() throws Exception {
    Schema wide = Schema.builder("wide").intAttribute("x", Long.MIN_VALUE, Long.MAX_VALUE).build();
    for (MatchKind kind : List.of(MatchKind.RANGE, MatchKind.LPM)) {
      MessageSpec spec =
          MessageSpec.of(
              "wide",
              wide,
              List.of(new QueryField("x", FieldKind.INT, 64, kind, (byte) 0, Long.MIN_VALUE, 0)));
      Compilation c = compile(spec, "x >= 0 : fwd(1)\nx == 9223372036854775807 : fwd(2)\n");
      Map<String, String> files = P4Target.emit(c);
      assertThat(files.get("entries.json")).contains("\"18446744073709551615\"");
      P4EntriesInterpreter p4 =
          P4EntriesInterpreter.of(spec, files.get("entries.json"), files.get("groups.json"));
      SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
      for (long x : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
        long[] v = {spec.field(0).encode(x)};
        assertThat(p4.ports(v)).as("%s x = %d", kind, x).isEqualTo(sw.actions(v));
      }
      assertThat(p4.ports(new long[] {-1L})).containsExactly(1, 2);
      assertThat(p4.ports(new long[] {Long.MAX_VALUE})).isEmpty();
    }
  }

  @Test
  void aggregatesAreDeclaredAndDescribedForTheLastHop() throws Exception {
    MessageSpec itch = BuiltinSpecs.itch();
    Compilation c =
        compile(
            itch,
            "stock == \"GOOGL\" && avg(price) > 60 over 1s : fwd(3)\nstock == \"MSFT\" : fwd(2)\n");
    Map<String, String> files = P4Target.emit(c);
    assertThat(files.get("camus.p4"))
        .contains("register<bit<32>>(1) camus_count;")
        .contains("register<bit<64>>(1) camus_sum;")
        .contains("register<bit<48>>(1) camus_window;")
        .contains("action set_mgid_conditional(bit<16> g) {")
        .contains("actions = { set_mgid; set_mgid_conditional; camus_drop; }")
        .contains("meta.camus_conditional: bit<1>")
        .contains("A group here names up to 1 slot and v1model has no loops");
    assertThat(braces(files.get("camus.p4"))).isZero();
    JsonNode root = JSON.readTree(files.get("entries.json"));
    JsonNode action = root.get("aggregates").get("conditional_actions").get(0);
    assertThat(action.get("port").asInt()).isEqualTo(3);
    assertThat(action.get("rule").asText()).isEqualTo("line 1");
    assertThat(action.get("conditions").get(0).toString())
        .isEqualTo(
            "{\"slot\":0,\"function\":\"avg\",\"argument\":\"price\",\"field\":\"hdr.itch.price\","
                + "\"op\":\">\",\"threshold\":\"60\",\"window_ns\":\"1000000000\"}");
    List<JsonNode> leaf = byTable(root.get("table_entries"), "CamusIngress.leaf");
    assertThat(leaf)
        .extracting(e -> e.get("action").get("name").asText())
        .containsExactlyInAnyOrder("CamusIngress.set_mgid", "CamusIngress.set_mgid_conditional");
    JsonNode conditionalGroup = root.get("aggregates").get("groups").get(0);
    assertThat(conditionalGroup.get("actions").get(0).asInt()).isEqualTo(action.get("id").asInt());
    // stateless, the switch replicates to the conditional action's port: a superset
    P4EntriesInterpreter sw =
        P4EntriesInterpreter.of(itch, files.get("entries.json"), files.get("groups.json"));
    assertThat(sw.ports(itch.values(order(itch, "GOOGL")))).containsExactly(3);
    assertThat(sw.ports(itch.values(order(itch, "MSFT")))).containsExactly(2);
  }

  static org.netpubsub.content.event.Event order(MessageSpec itch, String stock) {
    return org.netpubsub.content.event.Event.builder(itch.schema())
        .set("stock", stock)
        .set("price", 10)
        .set("shares", 1)
        .set("side", "B")
        .build();
  }

  @Test
  void groupsAndPortsMustFitV1model() {
    assertThatThrownBy(() -> P4Target.emit(compile(SPEC, "a > 3 : fwd(511)\n")))
        .hasMessageContaining("port 511 does not fit v1model's 9-bit ports");
  }

  static List<JsonNode> byTable(JsonNode entries, String table) {
    List<JsonNode> out = new ArrayList<>();
    entries.forEach(
        e -> {
          if (e.get("table").asText().equals(table)) {
            out.add(e);
          }
        });
    return out;
  }

  static String state(JsonNode e) {
    return e.get("match").get("meta.camus_state").get("exact").get("value").asText();
  }

  /** Opening minus closing braces: 0 when they balance. */
  static int braces(String s) {
    return (int)
        (s.chars().filter(ch -> ch == '{').count() - s.chars().filter(ch -> ch == '}').count());
  }
}
