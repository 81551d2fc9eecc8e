package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code nps testbed exec HOST -- CMD...}: runs CMD in the host's network namespace and exits with
 * its code. No {@code --json} here: the command's output is its own, and an option named --json
 * belongs to CMD.
 */
@Command(
    name = "exec",
    description = "Run a command in a host's network namespace: exec HOST -- CMD [ARGS...].")
final class TestbedExecCommand implements Callable<Integer> {
  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return TestbedScript.run("exec", args, false, spec.commandLine().getErr());
  }
}
