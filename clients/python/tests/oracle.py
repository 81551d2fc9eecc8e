"""The Java side of the differential tests: nps-cli's ClientOracle, one JVM per batch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
JAR = ROOT / "nps-cli" / "target" / "nps.jar"


def java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise RuntimeError("no java: run through scripts/test-python (it sources scripts/java-env)")
    return found


def ask(requests: list[dict]) -> list[dict]:
    """Every request answered by the Java library, in order."""
    if not JAR.exists():
        raise RuntimeError(f"{JAR} is missing: build it with ./nps --version")
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run([java(), "-cp", str(JAR), "org.netpubsub.cli.ClientOracle"],
                          input=text.encode(), capture_output=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"the oracle failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(answers) == len(requests), (len(answers), len(requests))
    failures = [a for a in answers if "failure" in a]
    assert not failures, failures[:3]
    return answers
