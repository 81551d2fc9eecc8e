package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.http.Tokens;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code nps auth token}: a new bearer token and the line of the principals file that admits it.
 */
@Command(
    name = "auth",
    mixinStandardHelpOptions = true,
    description =
        "Bearer tokens for the REST servers' --auth principals file, and CURVE key pairs for the"
            + " remote northbound (docs/security.md).",
    subcommands = {AuthCommand.TokenCommand.class, AuthCommand.CurveKeyCommand.class})
final class AuthCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      description = {
        "Prints a new random token (256 bits) on the first line, for the client (--token-file or"
            + " NPS_TOKEN), and on the second the token_sha256 line for the principal in the"
            + " --auth file. Only the hash goes into the file."
      })
  static final class TokenCommand implements Callable<Integer> {
    @Mixin JsonOutput json;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      String token = Tokens.newToken();
      PrintWriter out = spec.commandLine().getOut();
      if (json.enabled()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("token", token);
        o.put("token_sha256", Tokens.sha256(token));
        JsonOutput.printLine(out, o);
      } else {
        out.println(token);
        out.println("    token_sha256: " + Tokens.sha256(token));
      }
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "curve-key",
      mixinStandardHelpOptions = true,
      description = {
        "Prints a new CURVE key pair for the remote northbound: 'public = KEY' and 'secret = KEY'"
            + " (Z85), the key pair file of --nbi-remote-key or of a remote app. Keep the file"
            + " readable by its owner only; only the public key goes into --nbi-remote-clients."
      })
  static final class CurveKeyCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      org.netpubsub.controller.nbi.RemoteAppKeys.KeyPair k =
          org.netpubsub.controller.nbi.RemoteAppKeys.KeyPair.generate();
      PrintWriter out = spec.commandLine().getOut();
      out.println("public = " + k.publicZ85());
      out.println("secret = " + k.secretZ85());
      out.flush();
      return 0;
    }
  }
}
