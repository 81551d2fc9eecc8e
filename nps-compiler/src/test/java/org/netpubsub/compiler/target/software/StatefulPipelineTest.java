package org.netpubsub.compiler.target.software;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.aggregate.ConditionalAction;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.event.Event;

/**
 * Stateful aggregates at the last hop, on sequences worked out by hand with explicit timestamps.
 * Windows are aligned on multiples of their length; the message that updates a window counts.
 */
class StatefulPipelineTest {
  static final MessageSpec ITCH = BuiltinSpecs.itch();
  static final long MS = 1_000_000;

  static Compilation compile(String rules) {
    return RuleCompiler.compile(ITCH, RuleParser.parse(ITCH.schema(), rules), CompileOptions.EXACT);
  }

  static Event order(String stock, long price, long shares) {
    return Event.builder(ITCH.schema())
        .set("stock", stock)
        .set("price", price)
        .set("shares", shares)
        .set("side", "B")
        .build();
  }

  @Test
  void countAboveTwoOverOneHundredMilliseconds() {
    Compilation c =
        compile(
            """
            stock == "GOOGL" && count() > 2 over 100ms : fwd(1)
            stock == "MSFT" : fwd(2)
            """);
    StatefulPipeline p = StatefulPipeline.of(c);
    Event googl = order("GOOGL", 10, 1);
    assertThat(p.forward(googl, 0)).isEmpty(); // count 1 in [0, 100ms)
    assertThat(p.forward(googl, 10 * MS)).isEmpty(); // 2
    assertThat(p.forward(order("IBM", 10, 1), 15 * MS)).isEmpty(); // not GOOGL: no update
    assertThat(p.forward(order("MSFT", 10, 1), 20 * MS)).containsExactly(2); // nor a plain rule
    assertThat(p.forward(googl, 30 * MS)).containsExactly(1); // 3 > 2
    assertThat(p.forward(googl, 99 * MS)).containsExactly(1); // 4
    assertThat(p.forward(googl, 100 * MS)).isEmpty(); // [100ms, 200ms): 1
    assertThat(p.forward(googl, 150 * MS)).isEmpty(); // 2
    assertThat(p.forward(googl, 199 * MS)).containsExactly(1); // 3
    assertThat(p.forward(googl, 450 * MS)).isEmpty(); // [400ms, 500ms): 1, whatever came before
  }

  @Test
  void averagePriceAboveSixtyOverOneSecondIsExact() {
    Compilation c = compile("stock == \"GOOGL\" && avg(price) > 60 over 1s : fwd(3)");
    StatefulPipeline p = StatefulPipeline.of(c);
    assertThat(p.forward(order("GOOGL", 50, 1), 0)).isEmpty(); // 50 / 1
    assertThat(p.forward(order("GOOGL", 80, 1), 100 * MS)).containsExactly(3); // 130 / 2 = 65
    assertThat(p.forward(order("MSFT", 1000, 1), 150 * MS)).isEmpty(); // other stock: no update
    assertThat(p.forward(order("GOOGL", 40, 1), 200 * MS)).isEmpty(); // 170 / 3 = 56.67
    assertThat(p.forward(order("GOOGL", 71, 1), 500 * MS)).containsExactly(3); // 241 / 4 = 60.25
    assertThat(p.forward(order("GOOGL", 59, 1), 900 * MS)).isEmpty(); // 300 / 5 = 60, not > 60
    assertThat(p.forward(order("GOOGL", 61, 1), 1000 * MS)).containsExactly(3); // new window: 61
    assertThat(p.forward(order("GOOGL", 60, 1), 1999 * MS)).containsExactly(3); // 121 / 2 = 60.5
  }

  @Test
  void sumAndCountTogetherAndDecimalThresholds() {
    Compilation c =
        compile(
            "stock == \"A\" && sum(shares) >= 300 over 1s && avg(price) <= 10.5 over 1s : fwd(4)");
    StatefulPipeline p = StatefulPipeline.of(c);
    assertThat(p.forward(order("A", 10, 100), 0)).isEmpty(); // sum 100
    assertThat(p.forward(order("A", 11, 200), 1)).containsExactly(4); // 300; avg 10.5 ≤ 10.5
    assertThat(p.forward(order("A", 11, 1), 2)).isEmpty(); // 301; avg 32 / 3 = 10.67
  }

  @Test
  void oneSlotPerRuleAndAtomUpdatedOncePerMessage() {
    // one rule, two ports: one slot, so the first message counts once, not twice
    Compilation c = compile("count() > 1 over 1s : fwd(1, 2)");
    assertThat(c.conditionalActions().slotBound()).isEqualTo(1);
    assertThat(c.conditionalActions().size()).isEqualTo(2);
    StatefulPipeline p = StatefulPipeline.of(c);
    assertThat(p.forward(order("X", 1, 1), 0)).isEmpty();
    assertThat(p.forward(order("Y", 1, 1), 1)).containsExactly(1, 2);

    // two conjunctions sharing the atom count the messages of either in one window
    Compilation shared =
        compile("(stock == \"A\" || stock == \"B\") && count() > 1 over 1s : fwd(4)");
    assertThat(shared.conditionalActions().slotBound()).isEqualTo(1);
    StatefulPipeline q = StatefulPipeline.of(shared);
    assertThat(q.forward(order("A", 1, 1), 0)).isEmpty();
    assertThat(q.forward(order("C", 1, 1), 1)).isEmpty();
    assertThat(q.forward(order("B", 1, 1), 2)).containsExactly(4);

    // two rules with the same atom keep their own windows
    Compilation two =
        compile("stock == \"A\" && count() > 1 over 1s : fwd(5)\ncount() > 1 over 1s : fwd(6)");
    assertThat(two.conditionalActions().slotBound()).isEqualTo(2);
    StatefulPipeline r = StatefulPipeline.of(two);
    assertThat(r.forward(order("B", 1, 1), 0)).isEmpty(); // rule 2: 1
    assertThat(r.forward(order("A", 1, 1), 1)).containsExactly(6); // rule 1: 1, rule 2: 2
    assertThat(r.forward(order("A", 1, 1), 2)).containsExactly(5, 6);
  }

  @Test
  void aPlainActionForwardsWhateverTheConditionalOnesSay() {
    Compilation c =
        compile("stock == \"X\" : fwd(5)\nstock == \"X\" && count() > 100 over 1s : fwd(5, 6)");
    StatefulPipeline p = StatefulPipeline.of(c);
    assertThat(p.forward(order("X", 1, 1), 0)).containsExactly(5);
  }

  @Test
  void conditionalActionsAreIdsAboveThePortsWithTheirPort() {
    Compilation c =
        compile(
            "stock == \"GOOGL\" && count() > 2 over 100ms : fwd(7)\nstock == \"MSFT\" : fwd(2)");
    assertThat(c.isExact("line 1")).as("stateless tables: a superset").isFalse();
    assertThat(c.isExact("line 2")).isTrue();
    ConditionalActions actions = c.conditionalActions();
    ConditionalAction a = actions.all().iterator().next();
    assertThat(a.id()).isEqualTo(Rule.MAX_PORT + 1);
    assertThat(a.port()).isEqualTo(7);
    assertThat(a.rule()).isEqualTo("line 1");
    assertThat(a.conditions()).singleElement().satisfies(x -> assertThat(x.slot()).isZero());
    assertThat(a.conditions().get(0).windowNanos()).isEqualTo(100 * MS);
    assertThat(actions.portOf(a.id())).isEqualTo(7);
    assertThat(actions.portOf(2)).isEqualTo(2);
    assertThatThrownBy(() -> actions.portOf(Rule.MAX_PORT + 9))
        .hasMessageContaining("no conditional action " + (Rule.MAX_PORT + 9));
    // the stateless tables name the conditional action; a stateless target maps it to its port
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    long[] googl = ITCH.values(order("GOOGL", 1, 1));
    assertThat(sw.actions(googl)).containsExactly(a.id());
    assertThat(actions.ports(sw.actions(googl))).containsExactly(7);
    assertThat(c.evaluate(googl)).containsExactly(a.id());
  }

  @Test
  void incrementalRecompilationKeepsTheWindowsOfTheRulesThatStay() {
    Compilation c1 = compile("stock == \"GOOGL\" && count() > 2 over 1s : fwd(1)");
    StatefulPipeline p1 = StatefulPipeline.of(c1);
    Event googl = order("GOOGL", 1, 1);
    assertThat(p1.forward(googl, 0)).isEmpty();
    assertThat(p1.forward(googl, 1)).isEmpty();
    List<Rule> more =
        RuleParser.parse(
            ITCH.schema(),
            "stock == \"GOOGL\" && count() > 2 over 1s : fwd(1)\nstock == \"MSFT\" : fwd(2)");
    Compilation c2 = RuleCompiler.compile(ITCH, more, CompileOptions.EXACT, c1);
    assertThat(c2.isIncremental()).isTrue();
    StatefulPipeline p2 = p1.next(c2);
    assertThat(p2.forward(googl, 2)).containsExactly(1); // the third in the window
    assertThat(p2.forward(order("MSFT", 1, 1), 3)).containsExactly(2);
    assertThatThrownBy(() -> p2.forward(googl, 1))
        .hasMessageContaining("time went backwards: 1 ns after 3 ns");

    // withdrawn, its ids and slot are free again after the update; a new rule starts afresh
    Compilation c3 = RuleCompiler.update(c2, List.of(), List.of("line 1"));
    assertThat(c3.conditionalActions().isEmpty()).isTrue();
    int slot = p2.conditionalActions().all().iterator().next().conditions().get(0).slot();
    Compilation c4 =
        RuleCompiler.update(
            c3,
            RuleParser.parse(ITCH.schema(), "stock == \"GOOGL\" && count() > 2 over 1s : fwd(3)"),
            List.of());
    StatefulPipeline p4 = p2.next(c4); // c3 skipped: the slot is reused, by another generation
    assertThat(c4.conditionalActions().all())
        .singleElement()
        .satisfies(x -> assertThat(x.port()).isEqualTo(3));
    assertThat(p4.forward(googl, 4)).as("a fresh window: 1").isEmpty();
  }

  @Test
  void badWindowsAreRefusedWithTheRule() {
    assertThatThrownBy(() -> compile("count() > 1 over 400000000m : fwd(1)"))
        .hasMessageContaining("line 1")
        .hasMessageContaining("is too long");
  }
}
