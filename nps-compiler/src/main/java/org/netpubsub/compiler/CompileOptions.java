package org.netpubsub.compiler;

/**
 * How to compile: {@code alpha} is Camus's discretization unit (§4; 1 = exact). Two compilations
 * with different options never share state: recompiling with other options starts afresh.
 */
public record CompileOptions(long alpha) {
  public static final CompileOptions EXACT = new CompileOptions(1);

  public CompileOptions {
    if (alpha < 1) {
      throw new IllegalArgumentException("alpha must be at least 1, got " + alpha);
    }
  }
}
