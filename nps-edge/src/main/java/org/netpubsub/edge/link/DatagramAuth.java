package org.netpubsub.edge.link;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.spec.SecretKeySpec;

/**
 * The authentication every edge and overlay datagram carries (docs/security.md): a trailer of
 * {@link #TAG} bytes after the datagram, HMAC-SHA-256 of the datagram's bytes truncated to 128 bits
 * (RFC 4868's HMAC-SHA-256-128), under a key every agent or broker of one deployment shares. The
 * first key signs; every key verifies, so a new key can be added everywhere before it signs. {@link
 * #insecure()} (tests and experiments that ask for it by name only) adds and checks nothing.
 * Thread-safe: each thread keeps its own MACs. The keys can be replaced while datagrams flow
 * ({@link #update}, keys distributed through ZooKeeper): each thread picks the new set up at its
 * next datagram.
 */
public final class DatagramAuth {
  /** The trailer's size: the truncated HMAC. */
  public static final int TAG = 16;

  /** Keys shorter than this are refused (HMAC-SHA-256's own strength). */
  public static final int MIN_KEY = 32;

  /** A key file larger than this is not a key file. */
  private static final int MAX_FILE = 64 * 1024;

  private static final String ALGORITHM = "HmacSHA256";
  private static final DatagramAuth INSECURE = new DatagramAuth(List.of(), null);

  private final boolean secure;

  /**
   * An edge holding the deployment keys (null: none, or not an edge) also verifies the keys derived
   * for it ({@link EdgeKeys}): what routing brokers re-seal for it.
   */
  private final String edge;

  private volatile Keys current;

  /** For {@link #forEdge}: the instance whose keys this one follows (null: none). */
  private final DatagramAuth parent;

  /**
   * The edge views made from this instance ({@link #forEdge}), given their keys anew by {@link
   * #update}: a view never looks at its parent's keys per datagram. Weak: a view that is no longer
   * used goes with its broker. Guarded by this.
   */
  private final List<WeakReference<DatagramAuth>> views = new ArrayList<>();

  /** The deployment keys as given and the MAC keys verified: given first, then derived ones. */
  private record Keys(List<byte[]> given, List<SecretKeySpec> specs) {}

  private final ThreadLocal<PerThread> macs = new ThreadLocal<>();
  private final LongAdder otherKey = new LongAdder();

  /**
   * A thread's MACs for one key set (the list instance), one per key, each holding its key's pad
   * states ({@link HmacSha256}: two SHA-256 compressions fewer per datagram than {@code
   * javax.crypto.Mac}, the same tags), and a buffer for the full HMAC; made anew only when the keys
   * change.
   */
  private record PerThread(Keys keys, HmacSha256[] macs, byte[] tag) {}

  private DatagramAuth(List<byte[]> keys, String edge) {
    this.secure = !keys.isEmpty();
    this.edge = edge;
    this.parent = null;
    this.current = keys(keys, edge);
  }

  private DatagramAuth(DatagramAuth parent, String edge) {
    this.secure = parent.secure;
    this.edge = edge;
    this.parent = parent;
    this.current = keys(parent.current.given(), edge);
  }

  /** Authenticates with {@code keys}: the first signs, all verify. */
  public static DatagramAuth of(List<byte[]> keys) {
    return new DatagramAuth(checked(keys), null);
  }

  /**
   * For the edge {@code edge} holding these keys: signs as this instance does and verifies under
   * its keys and under the keys derived from them for {@code edge} too ({@link EdgeKeys}: a routing
   * broker re-seals every datagram it relays under the receiving edge's key; docs/security.md,
   * "Per-edge keys"). Follows this instance's {@link #update}s. An insecure instance stays as is.
   */
  public DatagramAuth forEdge(String edge) {
    if (!secure) {
      return this;
    }
    if (parent != null) {
      return parent.forEdge(edge);
    }
    synchronized (this) { // with update: a view made meanwhile gets the new keys either way
      DatagramAuth v = new DatagramAuth(this, java.util.Objects.requireNonNull(edge, "edge"));
      views.removeIf(r -> r.get() == null);
      views.add(new WeakReference<>(v));
      return v;
    }
  }

  /**
   * From now on signs with the first of {@code keys} and verifies under each (checked as {@link
   * #of}); datagrams in flight under a key that is no longer given are refused. Only for an
   * authenticating instance: an insecure one stays insecure.
   */
  public void update(List<byte[]> keys) {
    if (!secure) {
      throw new IllegalStateException("an insecure DatagramAuth has no keys to replace");
    }
    if (parent != null) {
      throw new IllegalStateException("an edge's view follows its parent's keys");
    }
    List<byte[]> given = checked(keys);
    synchronized (this) { // rotations are rare: each view's keys are derived here, once
      this.current = keys(given, edge);
      views.removeIf(r -> r.get() == null);
      for (WeakReference<DatagramAuth> r : views) {
        DatagramAuth v = r.get();
        if (v != null) {
          v.current = keys(given, v.edge);
        }
      }
    }
  }

  /** How many deployment keys verify now (the first of them signs). */
  public int keyCount() {
    return current.given().size();
  }

  /**
   * The deployment keys now, the signing one first (copies): for a holder that derives edges' keys
   * from them (a routing broker). Never logged or printed.
   */
  public List<byte[]> keys() {
    return current.given().stream().map(byte[]::clone).toList();
  }

  /** Changes (by identity) whenever {@link #update} replaces the keys. */
  public Object keysVersion() {
    return current;
  }

  /**
   * Datagrams that verified under a key other than the signing one: the previous key during a
   * rotation's grace period, or the next one from parties that already sign with it.
   */
  public long openedUnderOtherKey() {
    return otherKey.sum();
  }

  private static List<byte[]> checked(List<byte[]> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("datagram keys: none given");
    }
    for (byte[] k : keys) {
      if (k.length < MIN_KEY) {
        throw new IllegalArgumentException(
            "datagram key: " + k.length + " bytes, at least " + MIN_KEY + " needed");
      }
    }
    return keys.stream().map(byte[]::clone).toList();
  }

  private static Keys keys(List<byte[]> given, String edge) {
    List<SecretKeySpec> specs = new ArrayList<>();
    for (byte[] k : given) {
      specs.add(new SecretKeySpec(k, ALGORITHM));
    }
    if (edge != null) {
      for (byte[] k : EdgeKeys.derive(given, edge)) {
        specs.add(new SecretKeySpec(k, ALGORITHM));
      }
    }
    return new Keys(given, List.copyOf(specs));
  }

  /** No authentication at all: only where a test or an experiment asks for it explicitly. */
  public static DatagramAuth insecure() {
    return INSECURE;
  }

  /** A fresh random key (in-process experiments, where every party shares this object). */
  public static DatagramAuth random() {
    byte[] k = new byte[MIN_KEY];
    new SecureRandom().nextBytes(k);
    return of(List.of(k));
  }

  /**
   * The keys of a key file: one hex key per line (at least {@link #MIN_KEY} bytes), the first
   * signing; blank lines and lines starting with {@code #} are skipped. Read by bytes, at most 64
   * KiB, so a device or a huge file is refused rather than read.
   */
  public static DatagramAuth fromFile(Path file) throws IOException {
    return of(readKeyFile(file));
  }

  /**
   * The keys of a key file as {@link #fromFile} reads them (checked, the signing one first): for a
   * party that hands them on (the edge coordinator). Errors name the file and line, never a key.
   */
  public static List<byte[]> readKeyFile(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_FILE + 1);
    }
    if (bytes.length > MAX_FILE) {
      throw new IllegalArgumentException("datagram key file " + file + ": over " + MAX_FILE + " B");
    }
    List<byte[]> keys = new ArrayList<>();
    int line = 0;
    for (String l : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      line++;
      String s = l.strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      try {
        keys.add(HexFormat.of().parseHex(s));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "datagram key file " + file + " line " + line + ": not a hex key");
      }
    }
    try {
      return checked(keys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("datagram key file " + file + ": " + e.getMessage());
    }
  }

  /** Whether {@code a} and {@code b} hold the same keys in the same order. */
  public static boolean sameKeys(List<byte[]> a, List<byte[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether datagrams carry and need a tag. */
  public boolean secure() {
    return secure;
  }

  /** Bytes the trailer adds to each datagram. */
  public int overhead() {
    return secure() ? TAG : 0;
  }

  /**
   * Writes the tag of {@code len} bytes of {@code buf} from {@code off} right after them ({@code
   * buf} must have {@link #overhead()} bytes of room there); returns the sealed length.
   */
  public int seal(byte[] buf, int off, int len) {
    if (!secure()) {
      return len;
    }
    PerThread t = perThread();
    t.macs()[0].mac(buf, off, len, t.tag(), 0);
    System.arraycopy(t.tag(), 0, buf, off + len, TAG);
    return len + TAG;
  }

  /**
   * The length of the datagram in {@code len} sealed bytes of {@code buf} from {@code off}, or -1
   * when its tag does not verify under any key (or it is too short to carry one).
   */
  public int open(byte[] buf, int off, int len) {
    if (!secure()) {
      return len;
    }
    int body = len - TAG;
    if (body < 0) {
      return -1;
    }
    PerThread t = perThread();
    HmacSha256[] all = t.macs();
    for (int m = 0; m < all.length; m++) {
      all[m].mac(buf, off, body, t.tag(), 0);
      int diff = 0; // constant time: every byte compared, whatever differs
      for (int i = 0; i < TAG; i++) {
        diff |= t.tag()[i] ^ buf[off + body + i];
      }
      if (diff == 0) {
        if (m > 0 && m < t.keys().given().size()) { // a derived key is no "other" key
          (parent != null ? parent.otherKey : otherKey).increment();
        }
        return body;
      }
    }
    return -1;
  }

  /** This thread's MACs for the current keys, made anew when the keys have changed. */
  private PerThread perThread() {
    Keys now = current;
    PerThread t = macs.get();
    if (t == null || t.keys() != now) {
      t = newMacs(now);
      macs.set(t);
    }
    return t;
  }

  private static PerThread newMacs(Keys keys) {
    HmacSha256[] out = new HmacSha256[keys.specs().size()];
    for (int i = 0; i < out.length; i++) {
      byte[] k = keys.specs().get(i).getEncoded(); // a copy
      out[i] = new HmacSha256(k);
      java.util.Arrays.fill(k, (byte) 0);
    }
    return new PerThread(keys, out, new byte[HmacSha256.LENGTH]);
  }
}
