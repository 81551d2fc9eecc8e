package org.netpubsub.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.LeafEntry;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterArbitraries;

/**
 * Incremental recompilation equals a full rebuild after any sequence of additions, withdrawals and
 * changes: the same canonical BDD (the very node in the store), tables that forward alike, and a
 * stream of diffs that, applied in order, reproduces the tables — with no state id both freed and
 * reused by one update. With ids from content the tables are the full rebuild's, entry for entry.
 */
class IncrementalCompilationProperties {
  static final MessageSpec SPEC = MessageSpec.fromSchema(FilterArbitraries.MIXED);
  static final List<Event> EVENTS = FilterArbitraries.sampleMixedEvents().subList(0, 300);

  @Provide
  Arbitrary<List<Rule>> pool() {
    return CompilerFixtures.rules(FilterArbitraries.MIXED, 40).filter(l -> l.size() >= 10);
  }

  @Provide
  Arbitrary<List<Integer>> steps() {
    return Arbitraries.integers().between(0, 1 << 20).list().ofMinSize(5).ofMaxSize(30);
  }

  @Property(tries = 60)
  void incrementalEqualsFullRebuild(
      @ForAll("pool") List<Rule> pool,
      @ForAll("steps") List<Integer> steps,
      @ForAll boolean approximate,
      @ForAll boolean contentIds) {
    CompileOptions exactOrNot = new CompileOptions(approximate ? 2 : 1);
    CompileOptions o = contentIds ? exactOrNot.withContentIds() : exactOrNot;
    // the live rules: id → rule; ids are the pool's, so a re-added id is a change of content
    Map<String, Rule> live = new java.util.LinkedHashMap<>();
    for (Rule r : pool.subList(0, pool.size() / 2)) {
      live.put(r.id(), r);
    }
    Compilation c = RuleCompiler.compile(SPEC, new ArrayList<>(live.values()), o);
    Shadow shadow = new Shadow(SPEC.fields().size());
    shadow.apply(c.diff());
    for (int step : steps) {
      Rule r = pool.get(step % pool.size());
      String id = "r" + (step % 7); // a few ids: adds, removals and changes of one id
      if (live.containsKey(id) && step % 3 == 0) {
        live.remove(id);
      } else {
        live.put(id, new Rule(id, r.filter(), r.dnf(), r.ports()));
      }
      c = RuleCompiler.compile(SPEC, new ArrayList<>(live.values()), o, c);
      if (step % 5 == 0) {
        c.state().compact(); // ids change; tables and canonical form must not
      }
      assertThat(c.isIncremental()).isTrue();
      shadow.apply(c.diff());
      assertThat(c.root()).as("the canonical BDD").isEqualTo(RuleCompiler.rebuiltRoot(c));
      shadow.assertEquals(c.pipeline());
    }
    Compilation full = RuleCompiler.compile(SPEC, new ArrayList<>(live.values()), o);
    SoftwarePipeline a = SoftwarePipeline.of(c.pipeline());
    SoftwarePipeline b = SoftwarePipeline.of(full.pipeline());
    for (Event e : EVENTS) {
      long[] v = SPEC.values(e);
      assertThat(a.actions(v)).as("%s", e).isEqualTo(b.actions(v));
    }
    assertThat(c.pipeline().entries()).isEqualTo(full.pipeline().entries());
    assertThat(c.pipeline().groups()).hasSameSizeAs(full.pipeline().groups());
    if (contentIds) {
      // ids from content: the history left the very entries and groups a fresh compilation makes
      Shadow fresh = new Shadow(SPEC.fields().size());
      fresh.apply(full.diff());
      fresh.assertEquals(c.pipeline());
    }
  }

  /** Tables rebuilt from nothing but the diffs. */
  private static final class Shadow {
    final List<Set<FieldEntry>> tables = new ArrayList<>();
    final Set<LeafEntry> leaves = new HashSet<>();
    final Map<Integer, Group> groups = new HashMap<>();

    Shadow(int fields) {
      for (int f = 0; f < fields; f++) {
        tables.add(new HashSet<>());
      }
    }

    void apply(PipelineDiff d) {
      Set<Integer> freed = new HashSet<>();
      Set<Integer> used = new HashSet<>();
      for (int f = 0; f < tables.size(); f++) {
        for (FieldEntry e : d.added(f)) {
          assertThat(tables.get(f).add(e)).as("added twice: %s", e).isTrue();
          used.add(e.state());
        }
      }
      d.leavesAdded().forEach(e -> assertThat(leaves.add(e)).isTrue());
      d.groupsAdded().forEach(g -> assertThat(groups.put(g.id(), g)).isNull());
      for (int f = 0; f < tables.size(); f++) {
        for (FieldEntry e : d.removed(f)) {
          assertThat(tables.get(f).remove(e)).as("removed but absent: %s", e).isTrue();
          freed.add(e.state());
        }
      }
      d.leavesRemoved().forEach(e -> assertThat(leaves.remove(e)).isTrue());
      d.groupsRemoved().forEach(g -> assertThat(groups.remove(g.id())).isEqualTo(g));
      freed.retainAll(used);
      freed.remove(0); // the root's state is replaced in place
      assertThat(freed).as("states freed and reused by one update").isEmpty();
    }

    void assertEquals(Pipeline p) {
      for (int f = 0; f < tables.size(); f++) {
        assertThat(new HashSet<>(p.table(f))).isEqualTo(tables.get(f));
      }
      assertThat(new HashSet<>(p.leafTable())).isEqualTo(leaves);
      assertThat(new HashSet<>(p.groups())).isEqualTo(new HashSet<>(groups.values()));
    }
  }
}
