package org.netpubsub.content.event;

import java.nio.ByteBuffer;

/**
 * UTF-8 lengths and encoding without intermediate arrays; unpaired surrogates are not encodable.
 */
final class Utf8 {
  private Utf8() {}

  /** The UTF-8 length of {@code s} in bytes, or -1 when it holds an unpaired surrogate. */
  static int length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (!Character.isSurrogate(c)) {
        n += 3;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        return -1;
      }
    }
    return n;
  }

  /** Writes {@code s}, which {@link #length} accepted, as UTF-8. */
  static void write(String s, ByteBuffer out) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out.put((byte) c);
      } else if (c < 0x800) {
        out.put((byte) (0xC0 | c >> 6)).put((byte) (0x80 | c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        out.put((byte) (0xE0 | c >> 12))
            .put((byte) (0x80 | c >> 6 & 0x3F))
            .put((byte) (0x80 | c & 0x3F));
      } else {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out.put((byte) (0xF0 | cp >> 18))
            .put((byte) (0x80 | cp >> 12 & 0x3F))
            .put((byte) (0x80 | cp >> 6 & 0x3F))
            .put((byte) (0x80 | cp & 0x3F));
      }
    }
  }
}
