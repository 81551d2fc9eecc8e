package org.netpubsub.compiler.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.FieldKind;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.schema.Schema;

/** Exact fields: sets of == and != values, however they merge into intervals, and drops. */
class ExactFieldChainsTest {
  static final Schema ONE = Schema.builder("one").intAttribute("c", 0, 7).build();

  static Compilation compile(int width, String rules) {
    Schema s =
        width == 3 ? ONE : Schema.builder("one").intAttribute("c", 0, Long.MAX_VALUE).build();
    MessageSpec spec =
        MessageSpec.of(
            "one",
            s,
            List.of(new QueryField("c", FieldKind.INT, width, MatchKind.EXACT, (byte) 0, 0, 0)));
    return RuleCompiler.compile(spec, RuleParser.parse(s, rules), CompileOptions.EXACT);
  }

  /**
   * {@code c != 5}: the chain {@code c == 5 ? drop : {2}} has a default, so 5 needs an entry of its
   * own that leads nowhere (it keeps the state) — without it the default forwarded c = 5.
   */
  @Test
  void aValueThatLeadsToTheEmptyLeafIsNotTakenByTheDefault() {
    Compilation c = compile(3, "c != 5 : fwd(2)");
    assertThat(c.pipeline().table(0))
        .containsExactlyInAnyOrder(
            new FieldEntry(0, new Match.Value(5), 0), new FieldEntry(0, Match.ANY, 1));
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    assertThat(sw.actions(new long[] {5})).isEmpty();
    assertThat(sw.actions(new long[] {4})).containsExactly(2);
  }

  /** Adjacent values merge into an interval ([1, 2], or [2, 7] = all but [0, 1]): still values. */
  @Test
  void adjacentValuesAreValuesNotARange() {
    Compilation in = compile(3, "c == 1 || c == 2 : fwd(1)");
    assertThat(in.pipeline().table(0))
        .containsExactlyInAnyOrder(
            new FieldEntry(0, new Match.Value(1), 1), new FieldEntry(0, new Match.Value(2), 1));
    Compilation out = compile(3, "c != 0 && c != 1 : fwd(1)");
    SoftwarePipeline sw = SoftwarePipeline.of(out.pipeline());
    for (long v = 0; v < 8; v++) {
      assertThat(sw.actions(new long[] {v})).as("c = %d", v).hasSize(v >= 2 ? 1 : 0);
    }
    assertThat(out.pipeline().table(0)).hasSize(3); // 0 and 1 dead ends, the default
  }

  @Test
  void aRangeOfManyValuesIsStillRefused() {
    assertThatThrownBy(() -> compile(63, "c > 5 && c < 100000 : fwd(1)"))
        .hasMessageContaining("c is matched exactly (match: exact): only == and != apply");
  }
}
