package org.netpubsub.content;

/** A place in a text the user wrote: 1-based line and column. */
public record SourcePosition(int line, int column) {
  public SourcePosition {
    if (line < 1 || column < 1) {
      throw new IllegalArgumentException("line and column start at 1: " + line + ":" + column);
    }
  }

  /** The position of a 0-based character offset into {@code text}. */
  public static SourcePosition ofOffset(String text, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new SourcePosition(line, offset - lineStart + 1);
  }

  @Override
  public String toString() {
    return "line " + line + ", column " + column;
  }
}
