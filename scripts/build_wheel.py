"""Builds the Python client's wheel (pure Python, py3-none-any) without pip, setuptools' wheel
support or the network: a wheel is a zip of the package with METADATA, WHEEL and RECORD
(PEP 427). Usage: build_wheel.py clients/python OUT_DIR; prints the wheel's path."""

import base64
import hashlib
import os
import re
import sys
import tomllib
import zipfile


def main() -> None:
    src, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(src, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for root, _, names in os.walk(os.path.join(src, name)):
        for n in sorted(names):
            if n.endswith(".py"):
                path = os.path.join(root, n)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, src)] = f.read()
    readme = open(os.path.join(src, project.get("readme", "README.md"))).read()
    files[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        f"Summary: {project['description']}\nRequires-Python: {project['requires-python']}\n"
        f"Description-Content-Type: text/markdown\n\n{readme}").encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: netpubsub build_wheel.py\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n")
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    os.makedirs(out, exist_ok=True)
    wheel = os.path.join(out, f"{re.sub(r'[-.]', '_', name)}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, data, zipfile.ZIP_DEFLATED)
    print(wheel)


if __name__ == "__main__":
    main()
