package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code nps testbed hosts}: runs {@code testbed/nps-testbed hosts} with the same arguments. */
@Command(
    name = "hosts",
    description = {
      "List the hosts of the running test bed.",
      "Options are those of 'nps testbed hosts --help'."
    })
final class TestbedHostsCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("hosts", args, json.enabled(), spec.commandLine().getErr());
  }
}
