package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RemoteAppKeysTest {
  final RemoteAppKeys.KeyPair a = RemoteAppKeys.KeyPair.generate();
  final RemoteAppKeys.KeyPair b = RemoteAppKeys.KeyPair.generate();

  @Test
  void aKeyPairFileGivesTheSecretAndItsOwnPublicKey() {
    RemoteAppKeys.KeyPair read =
        RemoteAppKeys.keyPair(
            "# the bus\npublic = " + a.publicZ85() + "\nsecret = " + a.secretZ85() + "\n", "k");
    assertThat(read).isEqualTo(a);
    assertThat(RemoteAppKeys.keyPair("secret = " + a.secretZ85(), "k")).isEqualTo(a);
    assertThatThrownBy(
            () ->
                RemoteAppKeys.keyPair(
                    "public = " + b.publicZ85() + "\nsecret = " + a.secretZ85(), "k"))
        .hasMessage("k: the public key is not the secret key's");
    assertThatThrownBy(() -> RemoteAppKeys.keyPair("public = " + a.publicZ85(), "k"))
        .hasMessage("k: no 'secret = KEY' line");
    assertThatThrownBy(() -> RemoteAppKeys.keyPair("\nsecret = short", "k"))
        .hasMessage("k: line 2: secret: a key is 40 characters of Z85, not 5");
    assertThat(a.toString()).doesNotContain(a.secretZ85());
  }

  @Test
  void aClientsFileNamesEachClientAndItsApps() {
    Map<String, RemoteAppKeys.Client> c =
        RemoteAppKeys.clients(
            "alpha " + a.publicZ85() + "\n  # comment\nbeta " + b.publicZ85() + " x y\n", "c");
    assertThat(c.get(a.publicZ85()).apps()).containsExactly("alpha");
    assertThat(c.get(b.publicZ85()).apps()).containsExactly("x", "y");
    assertThat(new RemoteAppKeys(a, c).client(b.publicKey()).orElseThrow().name())
        .isEqualTo("beta");
    assertThat(new RemoteAppKeys(a, c).client(new byte[32])).isEmpty();
    assertThatThrownBy(() -> RemoteAppKeys.clients("alpha", "c"))
        .hasMessage("c: line 1: expected NAME PUBLIC_KEY [APP ...]");
    assertThatThrownBy(
            () -> RemoteAppKeys.clients("a " + a.publicZ85() + "\nb " + a.publicZ85(), "c"))
        .hasMessage("c: line 2: b's key is another client's too");
    assertThatThrownBy(
            () -> RemoteAppKeys.clients("a " + a.publicZ85() + "\na " + b.publicZ85(), "c"))
        .hasMessage("c: line 2: the name a appears twice");
    assertThatThrownBy(() -> RemoteAppKeys.clients("a " + a.publicZ85() + " bad/app", "c"))
        .hasMessageStartingWith("c: line 1: app: an app name is 1 to 64");
  }
}
