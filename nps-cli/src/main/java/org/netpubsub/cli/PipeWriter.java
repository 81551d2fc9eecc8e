package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * A writer over a command's stdout that fails once the reader has gone ({@code nps workload gen |
 * head -1}): a PrintWriter only records the broken pipe, so a long writer would go on to the end.
 */
final class PipeWriter extends Writer {
  private final PrintWriter out;

  PipeWriter(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void write(char[] chars, int offset, int length) throws IOException {
    out.write(chars, offset, length);
    check(); // callers write in blocks (Jackson's 8 000 chars): one check per block
  }

  @Override
  public void flush() throws IOException {
    out.flush();
    check();
  }

  @Override
  public void close() throws IOException {
    flush();
  }

  private void check() throws IOException {
    if (out.checkError()) {
      throw new ClosedStdout();
    }
  }

  /** The reader of stdout has gone: the command stops quietly. */
  static final class ClosedStdout extends IOException {
    private static final long serialVersionUID = 1L;

    ClosedStdout() {
      super("stdout closed");
    }
  }
}
