package org.netpubsub.content;

import java.util.Optional;

/**
 * Bad input from a user (a schema, a filter, an event): what is wrong and, where known, where.
 * {@link #render()} shows the offending line with a caret under the spot.
 */
public class InvalidInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String reason;
  private final transient SourcePosition position;
  private final String source;

  public InvalidInputException(String reason) {
    this(reason, null, null);
  }

  /**
   * @param reason what is wrong, without the position
   * @param position where, or null
   * @param source the whole text the position points into, or null
   */
  public InvalidInputException(String reason, SourcePosition position, String source) {
    super(position == null ? reason : position + ": " + reason);
    this.reason = reason;
    this.position = position;
    this.source = source;
  }

  public String reason() {
    return reason;
  }

  public Optional<SourcePosition> position() {
    return Optional.ofNullable(position);
  }

  /** The message, then the offending line and a caret under the column (when both are known). */
  public String render() {
    if (position == null || source == null) {
      return getMessage();
    }
    String[] lines = source.split("\n", -1);
    if (position.line() > lines.length) {
      return getMessage();
    }
    String line = lines[position.line() - 1];
    StringBuilder caret = new StringBuilder("  ");
    for (int i = 0; i < position.column() - 1 && i < line.length(); i++) {
      caret.append(line.charAt(i) == '\t' ? '\t' : ' ');
    }
    for (int i = line.length(); i < position.column() - 1; i++) {
      caret.append(' ');
    }
    return getMessage() + "\n  " + line + "\n" + caret + "^";
  }
}
