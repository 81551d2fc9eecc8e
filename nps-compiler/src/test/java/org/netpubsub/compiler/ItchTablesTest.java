package org.netpubsub.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;

/** A small ITCH rule set whose tables are worked out by hand (the shape of Camus Figure 6). */
class ItchTablesTest {
  static final MessageSpec ITCH = BuiltinSpecs.itch();

  static List<Rule> rules(String text) {
    return RuleParser.parse(ITCH.schema(), text);
  }

  static long[] quote(String stock, long price) {
    return ITCH.values(
        Event.builder(ITCH.schema())
            .set("stock", stock)
            .set("price", price)
            .set("shares", 100)
            .set("side", "B")
            .build());
  }

  @Test
  void tablesOfThreeRules() {
    Compilation c =
        RuleCompiler.compile(
            ITCH,
            rules(
                """
                stock == "GOOGL" && price > 100 : fwd(1)
                stock == "GOOGL" && price < 50 : fwd(2)
                stock == "MSFT" : fwd(2)
                """),
            CompileOptions.EXACT);
    Pipeline p = c.pipeline();
    // stock: from state 0, GOOGL to the price chain and MSFT straight to the leaf {2}; no default
    assertThat(p.table(0))
        .hasSize(2)
        .allMatch(e -> e.state() == 0 && e.match() instanceof Match.Value);
    // price: [0, 49] → {2}, [101, 2^32 − 1] → {1}; [50, 100] gets no entry (dropped)
    List<FieldEntry> price = List.copyOf(p.table(1));
    assertThat(price)
        .extracting(FieldEntry::match)
        .containsExactlyInAnyOrder(new Match.Range(0, 49), new Match.Range(101, (1L << 32) - 1));
    assertThat(p.table(2)).isEmpty();
    assertThat(p.table(3)).isEmpty();
    assertThat(p.leafTable()).hasSize(2);
    assertThat(p.groups()).hasSize(2);
    assertThat(c.widenedRules()).isZero();

    SoftwarePipeline sw = SoftwarePipeline.of(p);
    assertThat(sw.actions(quote("GOOGL", 30))).containsExactly(2);
    assertThat(sw.actions(quote("GOOGL", 75))).isEmpty();
    assertThat(sw.actions(quote("GOOGL", 200))).containsExactly(1);
    assertThat(sw.actions(quote("MSFT", 75))).containsExactly(2);
    assertThat(sw.actions(quote("IBM", 200))).isEmpty();
  }

  @Test
  void exactFieldsTakeEqualityAndStringNegationsAreWidened() {
    Compilation c =
        RuleCompiler.compile(
            ITCH,
            rules(
                """
                stock != "IBM" && price > 10 : fwd(3)
                stock == "IBM" : fwd(4)
                """),
            CompileOptions.EXACT);
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    assertThat(sw.actions(quote("IBM", 5))).containsExactly(4);
    // != on a padded string cannot be decided without risking a miss ("IBM " pads like "IBM"):
    // the switch forwards it, the host's exact check drops it
    assertThat(c.isExact("line 1")).isFalse();
    assertThat(c.isExact("line 2")).isTrue();
    assertThat(sw.actions(quote("IBM", 50))).containsExactly(3, 4);
    assertThat(sw.actions(quote("AAPL", 50))).containsExactly(3);
    assertThat(sw.actions(quote("AAPL", 5))).isEmpty();
    // the default entry of the stock table (any stock but IBM) sits below the value entry
    assertThat(c.pipeline().table(0))
        .anyMatch(e -> e.match() instanceof Match.Any && e.priority() == 1);
  }

  @Test
  void aRangeOnAnExactFieldIsRefusedWithTheRule() {
    assertThatThrownBy(
            () ->
                RuleCompiler.compile(
                    ITCH, rules("stock prefix \"GO\" : fwd(1)"), CompileOptions.EXACT))
        .hasMessageContaining("line 1")
        .hasMessageContaining("stock is matched exactly");
  }

  @Test
  void edgeCases() {
    Compilation none = RuleCompiler.compile(ITCH, List.of(), CompileOptions.EXACT);
    assertThat(none.pipeline().entries()).isZero();
    assertThat(SoftwarePipeline.of(none.pipeline()).actions(quote("X", 1))).isEmpty();
    Compilation all =
        RuleCompiler.compile(ITCH, rules("true : fwd(7)\nfalse : fwd(8)"), CompileOptions.EXACT);
    assertThat(all.pipeline().entries()).as("only the leaf entry of state 0").isEqualTo(1);
    assertThat(SoftwarePipeline.of(all.pipeline()).actions(quote("X", 1))).containsExactly(7);
    assertThatThrownBy(
            () ->
                RuleCompiler.compile(
                    ITCH,
                    rules("true : fwd(1)\ntrue : fwd(1)").stream()
                        .map(r -> new Rule("same", r.filter(), r.dnf(), r.ports()))
                        .toList(),
                    CompileOptions.EXACT))
        .hasMessageContaining("two rules have the id same");
    Compilation c = RuleCompiler.compile(ITCH, rules("price > 5 : fwd(1)"), CompileOptions.EXACT);
    Compilation d =
        RuleCompiler.compile(ITCH, rules("price > 5 : fwd(1)"), CompileOptions.EXACT, c);
    assertThat(d.diff().isEmpty()).isTrue();
    assertThatThrownBy(c::pipeline).hasMessageContaining("given to a later one");
    assertThatThrownBy(() -> RuleCompiler.update(d, List.of(), List.of("nope")))
        .hasMessageContaining("no rule nope");
  }
}
