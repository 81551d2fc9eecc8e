package org.netpubsub.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.netpubsub.content.InvalidInputException;

/**
 * Text inputs of the CLI's commands, read with a limit counted in bytes read (never by {@code
 * Files.size}, which a device such as {@code /dev/zero} or a growing file reports wrongly): an
 * input over the limit is refused with the reason instead of filling the heap.
 */
final class BoundedInput {
  /** The largest text input read: 64 MiB. */
  static final int MAX_BYTES = 64 << 20;

  private BoundedInput() {}

  /** {@code file}'s text (strict UTF-8, as Files.readString); {@code what} names it in errors. */
  static String file(Path file, String what) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = bytes(in, what + " " + file);
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("cannot read " + what + " " + file + ": no such file");
    } catch (IOException e) {
      throw new InvalidInputException("cannot read " + what + " " + file + ": " + e.getMessage());
    }
  }

  /** Standard input's text (UTF-8, malformed bytes replaced), within the same limit. */
  static String stdin() {
    try {
      return new String(bytes(System.in, "stdin"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInputException("cannot read stdin: " + e.getMessage());
    }
  }

  private static byte[] bytes(InputStream in, String what) throws IOException {
    byte[] b = in.readNBytes(MAX_BYTES + 1);
    if (b.length > MAX_BYTES) {
      throw new InvalidInputException(what + ": larger than " + MAX_BYTES + " bytes");
    }
    return b;
  }
}
