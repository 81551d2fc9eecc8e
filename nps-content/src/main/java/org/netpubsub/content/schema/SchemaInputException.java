package org.netpubsub.content.schema;

import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;

/**
 * A bad schema file: an {@link InvalidInputException} whose message starts with the file name, as
 * in {@code quotes.yaml: line 7, column 5: unknown key 'maxx' ...}.
 */
final class SchemaInputException extends InvalidInputException {
  private static final long serialVersionUID = 1L;

  private final String sourceName;

  SchemaInputException(String sourceName, String reason, SourcePosition position, String text) {
    super(reason, position, text);
    this.sourceName = sourceName;
  }

  @Override
  public String getMessage() {
    return sourceName == null ? super.getMessage() : sourceName + ": " + super.getMessage();
  }
}
