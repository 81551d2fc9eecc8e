package org.netpubsub.compiler.target.p4;

import java.util.LinkedHashMap;
import java.util.Map;
import org.netpubsub.compiler.Compilation;

/**
 * The P4_16 target (Camus §5 on a v1model switch): a compilation becomes the ingress control and
 * its runtime files. Pure: it returns the files' text; the caller writes them.
 */
public final class P4Target {
  public static final String PROGRAM = "camus.p4";
  public static final String ENTRIES = "entries.json";
  public static final String GROUPS = "groups.json";

  private P4Target() {}

  /** {@code camus.p4}, {@code entries.json} and {@code groups.json}, by file name, in order. */
  public static Map<String, String> emit(Compilation c) {
    P4Program p = P4Program.of(c);
    Map<String, String> files = new LinkedHashMap<>();
    files.put(PROGRAM, P4ProgramWriter.write(p));
    files.put(ENTRIES, P4RuntimeJson.entries(p));
    files.put(GROUPS, P4RuntimeJson.groups(p));
    return files;
  }
}
