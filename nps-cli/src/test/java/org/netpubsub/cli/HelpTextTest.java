package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** Every visible option and parameter of every command says what it is for. */
class HelpTextTest {
  @Test
  void noCommandHasABlankHelpEntry() {
    List<String> blank = new ArrayList<>();
    walk(Nps.commandLine(), blank);
    assertThat(blank).isEmpty();
  }

  @Test
  void theWalkReachesEveryCommand() {
    List<String> names = new ArrayList<>();
    collect(Nps.commandLine(), names);
    assertThat(names)
        .contains("nps controller", "nps overlay edge-broker", "nps bench nbi", "nps workload gen");
  }

  private static void walk(CommandLine cl, List<String> blank) {
    CommandSpec spec = cl.getCommandSpec();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden() && String.join("", o.description()).isBlank()) {
        blank.add(spec.qualifiedName() + " " + o.longestName());
      }
    }
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden() && String.join("", p.description()).isBlank()) {
        blank.add(spec.qualifiedName() + " " + p.paramLabel());
      }
    }
    cl.getSubcommands().values().forEach(sub -> walk(sub, blank));
  }

  private static void collect(CommandLine cl, List<String> names) {
    names.add(cl.getCommandSpec().qualifiedName());
    cl.getSubcommands().values().forEach(sub -> collect(sub, names));
  }
}
