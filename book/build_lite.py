"""The course in a browser with nothing to install: a JupyterLite site (``make lite``, ``build/lite/``).
Build tooling of a checkout, not part of the installed kit: ``python book/build_lite.py [OUTPUT]``.

:func:`build_lite` builds a static site that runs the chapters in the Pyodide kernel: JupyterLite and its
Pyodide kernel (the ``lite`` extra, pinned in ``pyproject.toml``), the Pyodide runtime and HiGHS compiled to
WebAssembly from npm, the wheels the kernel and the kit load from PyPI, and the kit's own wheel.  Every
version and hash the site is made of is listed here, once; every download is checked against its hash and
cached (``build/lite-cache``), so a second build downloads nothing.  Nothing is fetched from anywhere but
the registries (PyPI through pip, npm through ``npm pack``).

How the pieces fit: Pyodide installs a package from its lock file (``pyodide-lock.json``) before it looks
anywhere else, so the wheels the site ships sit beside the lock and the lock's entries name them with their
own sha256.  Every other package of the lock points at the Pyodide CDN, so that online the chapters' figures
can still load numpy and matplotlib (``%pip install matplotlib``); offline a figure says in one line that
the page is offline and how to get its package, and the chapter runs on to its last cell under Run All.
PyPI is never asked (``disablePyPIFallback``).  The kernel starts with the kit and its solvers loaded.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from nqueens_kit import __version__
from nqueens_kit.course.notebooks import notebook_files, notebooks_folder
from nqueens_kit.errors import InputError
from nqueens_kit.runtime.browser import PYCOSAT_MODULE, SITE_FILES

#: The Pyodide runtime from npm, matching ``jupyterlite-pyodide-kernel`` 0.8.6; (package, version, integrity).
PYODIDE = ("pyodide", "314.0.6",
           "sha512-BKDTJyIqFxC4BExLqeRS3f5xvXZIjOt8C3zGLN/Cc7tFxSwvKVhVkchQQ2AGLOtR4YrVOIFxbV8poyDOOmWwxQ==")
#: HiGHS compiled to WebAssembly: the browser's ILP solver, the ``highs-wasm`` entry
#: (:class:`nqueens_kit.solvers.browser.HighsWasm`).
HIGHS = ("highs", "1.15.3",
         "sha512-5rzjBlAkqRxr7FOv+iZjxF8nNfKsEt8uOaP3S6gls6yRf4+Jv4BqBIE3iPFsgfOHutQBMNxRE9jWhxRAM7Oycw==")
#: Where the packages of Pyodide's lock that the site does not ship come from (online only).
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE[1]}/full/"
#: The WebAssembly platform of Pyodide 314 (python-sat's wheels for it are on PyPI).
WASM_PLATFORM, WASM_PYTHON = "pyemscripten_2026_0_wasm32", "3.14"

#: The wheels the site ships, from PyPI: (lock name, version, file, sha256, depends).  The first group
#: replaces the lock's own builds of the same versions (the kernel needs them before any chapter runs); the
#: second adds what the lock lacks.  The sha256 is that of the PyPI file, which the lock is given.
WHEELS: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("micropip", "0.11.1", "micropip-0.11.1-py3-none-any.whl",
     "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3", ()),
    ("packaging", "26.1", "packaging-26.1-py3-none-any.whl",
     "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f", ()),
    ("ipython", "9.12.0", "ipython-9.12.0-py3-none-any.whl",
     "0f2701e8ee86e117e37f50563205d36feaa259d2e08d4a6bc6b6d74b18ce128d",
     ("asttokens", "decorator", "executing", "matplotlib-inline", "prompt-toolkit", "pure-eval", "pygments",
      "six", "stack-data", "traitlets", "wcwidth")),
    ("asttokens", "3.0.1", "asttokens-3.0.1-py3-none-any.whl",
     "15a3ebc0f43c2d0a50eeafea25e19046c68398e487b9f1f5b517f7c0f40f976a", ("six",)),
    ("six", "1.17.0", "six-1.17.0-py2.py3-none-any.whl",
     "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274", ()),
    ("decorator", "5.2.1", "decorator-5.2.1-py3-none-any.whl",
     "d316bb415a2d9e2d2b3abcc4084c6502fc09240e292cd76a76afc106a1c8e04a", ()),
    ("executing", "2.2.1", "executing-2.2.1-py2.py3-none-any.whl",
     "760643d3452b4d777d295bb167ccc74c64a81df23fb5e08eff250c425a4b2017", ()),
    ("matplotlib-inline", "0.2.1", "matplotlib_inline-0.2.1-py3-none-any.whl",
     "d56ce5156ba6085e00a9d54fead6ed29a9c47e215cd1bba2e976ef39f5710a76", ("traitlets",)),
    ("traitlets", "5.14.3", "traitlets-5.14.3-py3-none-any.whl",
     "b74e89e397b1ed28cc831db7aea759ba6640cb3de13090ca145426688ff1ac4f", ()),
    ("prompt-toolkit", "3.0.52", "prompt_toolkit-3.0.52-py3-none-any.whl",
     "9aac639a3bbd33284347de5ad8d68ecc044b91a762dc39b7c21095fcd6a19955", ("wcwidth",)),
    ("wcwidth", "0.6.0", "wcwidth-0.6.0-py3-none-any.whl",
     "1a3a1e510b553315f8e146c54764f4fb6264ffad731b3d78088cdb1478ffbdad", ()),
    ("pure-eval", "0.2.3", "pure_eval-0.2.3-py3-none-any.whl",
     "1db8e35b67b3d218d818ae653e27f06c3aa420901fa7b081ca98cbedc874e0d0", ()),
    ("pygments", "2.20.0", "pygments-2.20.0-py3-none-any.whl",
     "81a9e26dd42fd28a23a2d169d86d7ac03b46e2f8b59ed4698fb4785f946d0176", ()),
    ("stack-data", "0.6.3", "stack_data-0.6.3-py3-none-any.whl",
     "d5558e0c25a4cb0853cddad3d77da9891a08cb85dd9f9f91b9f8cd66e511e695", ("asttokens", "executing", "pure-eval")),
    ("jedi", "0.19.2", "jedi-0.19.2-py2.py3-none-any.whl",
     "a8ef22bde8490f57fe5c7681a3c83cb58874daf72b4784de3cce5b6ef6edb5b9", ("parso",)),
    ("parso", "0.8.6", "parso-0.8.6-py2.py3-none-any.whl",
     "2c549f800b70a5c4952197248825584cb00f033b29c692671d3bf08bf380baff", ()),
    ("tqdm", "4.67.3", "tqdm-4.67.3-py3-none-any.whl",
     "ee1e4c0e59148062281c49d80b25b67771a127c85fc9676d3be5f243206826bf", ()),
    # -- not in Pyodide's lock, or newer than its build --
    ("python-sat", "1.9.dev22", "python_sat-1.9.dev22-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
     "d56b6fcb00f0aab8f42137749098b10e07669bf846883847a4e4b202621e7b95", ("six",)),
    # PuLP 3 is pure Python (PuLP 4 ships only native wheels); it writes the model HiGHS solves.
    ("pulp", "3.3.2", "pulp-3.3.2-py3-none-any.whl",
     "631b166f72086971a9597f7a0233ababa99bb8d50a01cd543f7758be5a9f86c0", ()),
    ("comm", "0.2.3", "comm-0.2.3-py3-none-any.whl",
     "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417", ()),
    ("ipywidgets", "8.1.8", "ipywidgets-8.1.8-py3-none-any.whl",
     "ecaca67aed704a338f88f67b1181b58f821ab5dc89c1f0f5ef99db43c1c2921e",
     ("comm", "ipython", "jupyterlab-widgets", "traitlets")),
    ("jupyterlab-widgets", "3.0.16", "jupyterlab_widgets-3.0.16-py3-none-any.whl",
     "45fa36d9c6422cf2559198e4db481aa243c7a32d9926b500781c830c80f7ecf8", ()),
)
#: The kit's own entry in the lock: what it needs in the browser (pycosat, matplotlib and the DIMACS
#: executables have no browser build here; the kit detects the browser and uses these instead).
KIT_DEPENDS = ("python-sat", "pulp", "tqdm", "ipywidgets", "pycosat")
#: Loaded when the kernel starts, so that the first cell of a chapter imports the kit at once.
PRELOAD = ("micropip", "nqueens-kit")
#: Run by the kernel as it starts (an IPython start-up file): the kit learns it is in a browser before any
#: cell runs, so that ``import matplotlib`` in a chapter's first cell gets the offline stand-in, the chapters
#: read their data files even when the drive cannot be read, and a cell that meets what the browser lacks says
#: so in one line and ends without an error, so that Run All goes on (:func:`nqueens_kit.runtime.browser.start_kernel`).
STARTUP = ("import nqueens_kit.runtime.browser as _nqk_browser  # the browser edition: see its docstring\n"
           "_nqk_browser.start_kernel(get_ipython())\n"
           "del _nqk_browser\n")
#: Where the site's own wheel puts the start-up file, in Pyodide's site-packages; the kernel's IPYTHONDIR.
STARTUP_FOLDER = "nqueens_kit_browser/ipython"
SITE_PACKAGES = "/lib/python3.14/site-packages"

#: The chapters that run in the browser: rules to clauses, SAT, ILP, encodings, the playground, inside.
CHAPTERS = ("01-rules-to-clauses", "02-solving-with-sat", "03-the-ilp-model", "04-encodings-compared",
            "06-playground", "07-inside-the-solvers")

#: The chapters' kernel in the site (the Pyodide kernel's name).
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: The Pyodide kernel's settings in ``jupyter-lite.json``.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: JupyterLab settings of the site.
SETTINGS_OVERRIDES = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}
#: Labextensions the site carries (from the build environment): the Pyodide kernel and the widgets.
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager")


def _say(message: str) -> None:
    print(f"lite: {message}", file=sys.stderr, flush=True)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def npm_tarball(spec: tuple[str, str, str], cache: Path) -> Path:
    """The npm package ``spec`` (name, version, integrity) as a tarball in ``cache``, fetched once with
    ``npm pack`` and checked against its integrity every time."""
    name, version, integrity = spec
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{name}-{version}.tgz"
    if not tarball.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise InputError(f"the browser edition needs the npm package {name}@{version}, and npm is not "
                             "installed (Debian: apt-get install npm; or nodejs.org)")
        _say(f"npm pack {name}@{version}")
        proc = subprocess.run([npm, "pack", f"{name}@{version}", "--json", "--pack-destination", str(cache)],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise InputError(f"npm pack {name}@{version} failed: {proc.stderr.strip().splitlines()[-1:]}")
    algorithm, expected = integrity.split("-", 1)
    if base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode() != expected:
        tarball.unlink()
        raise InputError(f"{tarball.name} does not match the integrity pinned for {name}@{version}; "
                         "removed, build again")
    return tarball


def wheel(entry: tuple[str, str, str, str, tuple[str, ...]], cache: Path) -> Path:
    """One wheel of :data:`WHEELS` in ``cache``, downloaded once from PyPI with pip and checked."""
    name, version, filename, sha256, _ = entry
    path = cache / filename
    if not path.is_file():
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--python-version", WASM_PYTHON, "--dest", str(cache), f"{name}=={version}"]
        if "wasm32" in filename:
            command[-1:-1] = ["--platform", WASM_PLATFORM]
        _say(f"pip download {name}=={version}")
        proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not path.is_file():
            raise InputError(f"cannot download {filename} from PyPI: "
                             f"{(proc.stderr.strip().splitlines() or ['no such file'])[-1]}")
    if _sha256(path) != sha256:
        path.unlink()
        raise InputError(f"{filename} does not match the sha256 pinned for it; removed, build again")
    return path


def kit_wheel(dest: Path) -> Path:
    """The kit's own wheel, built from this checkout (or the installed source) into ``dest``."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        raise InputError("make lite builds the kit's wheel from a checkout; run it in the repository")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    # From the sdist, as pip installs it (python -m build): nothing is built inside the checkout.
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dest), str(root)],
                          capture_output=True, text=True, timeout=600)
    found = sorted(dest.glob("nqueens_kit-*.whl"))
    if proc.returncode != 0 or not found:
        raise InputError(f"cannot build the kit's wheel: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
    return found[0]


def _extract(tarball: Path, prefix: str, target: Path, names: tuple[str, ...] | None = None) -> None:
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            relative = member.name[len(prefix):]
            if names is not None and relative not in names:
                continue
            if relative.endswith(".map") or relative.endswith(".d.ts"):
                continue
            extracted = archive.extractfile(member)
            assert extracted is not None
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / relative).write_bytes(extracted.read())


def write_lock(pyodide: Path, wheels: list[Path], kit: Path,
               site_files: dict[str, bytes] | None = None) -> dict[str, object]:
    """Rewrite ``pyodide/pyodide-lock.json``: the shipped wheels by their own name and sha256 (they sit beside
    the lock), the kit with its browser dependencies, every other package on the Pyodide CDN; the site's own
    wheel carries ``site_files`` (see :func:`stand_in_wheel`)."""
    lock_path = pyodide / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    packages: dict[str, dict[str, object]] = lock["packages"]
    for entry in packages.values():
        entry["file_name"] = PYODIDE_CDN + str(entry["file_name"])
    for (name, version, _, sha256, depends), path in zip(WHEELS, wheels, strict=True):
        old = packages.get(name, {})
        imports = old.get("imports") or [name.replace("-", "_")]
        packages[name] = {"name": name, "version": version, "file_name": path.name, "install_dir": "site",
                          "sha256": sha256, "package_type": "package", "imports": imports,
                          "depends": list(depends), "unvendored_tests": False}
        shutil.copyfile(path, pyodide / path.name)
    packages["nqueens-kit"] = {"name": "nqueens-kit", "version": __version__, "file_name": kit.name,
                               "install_dir": "site", "sha256": _sha256(kit), "package_type": "package",
                               "imports": ["nqueens_kit"], "depends": list(KIT_DEPENDS),
                               "unvendored_tests": False}
    shutil.copyfile(kit, pyodide / kit.name)
    shim = stand_in_wheel(kit.parent, site_files)
    packages["pycosat"] = {"name": "nqueens-kit-browser", "version": "0.1.0", "file_name": shim.name,
                           "install_dir": "site", "sha256": _sha256(shim), "package_type": "package",
                           "imports": ["pycosat"], "depends": ["python-sat"], "unvendored_tests": False}
    shutil.copyfile(shim, pyodide / shim.name)
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))
    return lock


def stand_in_wheel(dest: Path, site_files: dict[str, bytes] | None = None) -> Path:
    """A wheel of the site's own: the ``pycosat`` module (pycosat's API on python-sat, for the chapters that
    import pycosat, which has no WebAssembly build: :data:`~nqueens_kit.runtime.browser.PYCOSAT_MODULE`),
    the kernel's start-up file (:data:`STARTUP`; the kernel finds it through ``IPYTHONDIR``) and a copy of
    the notebook folder's files other than the chapters, ``site_files`` (path: contents), for a kernel that
    cannot read the site's drive (:data:`~nqueens_kit.runtime.browser.SITE_FILES`)."""
    import zipfile

    name, version = "nqueens_kit_browser", "0.1.0"
    info = f"{name}-{version}.dist-info"
    files: dict[str, str | bytes] = {
        "pycosat.py": PYCOSAT_MODULE,
        f"{STARTUP_FOLDER}/profile_default/startup/00-nqueens-kit.py": STARTUP,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: nqueens-kit-browser\nVersion: {version}\n"
                            "Summary: the browser edition's start-up and pycosat's API on python-sat\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: nqueens-kit\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/top_level.txt": "pycosat\n",
    }
    files.update({f"{SITE_FILES}/{path}": data for path, data in sorted((site_files or {}).items())})
    raw = {path: text.encode() if isinstance(text, str) else text for path, text in files.items()}
    record = [f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
              f"{len(data)}" for path, data in raw.items()]
    raw[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in raw.items():
            info_ = zipfile.ZipInfo(member, date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info_, data)
    return path


def _extension_paths() -> list[str]:
    prefix = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    paths = []
    for name in EXTENSIONS:
        if not (prefix / name / "package.json").is_file():
            raise InputError(f"the labextension {name} is not installed in {sys.prefix}: "
                             'pip install -e ".[lite]"')
        paths.append(str(prefix / name))
    return paths


def build_lite(output: str | os.PathLike[str] = "build/lite", cache: str | os.PathLike[str] | None = None,
               chapters: tuple[str, ...] = CHAPTERS) -> dict[str, object]:
    """Build the JupyterLite site into ``output``; downloads are cached in ``cache`` (default: beside the
    output, ``build/lite-cache``).  Returns what was built: ``output``, ``seconds``, ``bytes``, ``files``."""
    start = time.perf_counter()
    out = Path(output).resolve()
    cache_dir = Path(cache).resolve() if cache else out.parent / (out.name + "-cache")
    jupyter = Path(sys.executable).with_name("jupyter")
    if not jupyter.is_file() or shutil.which("jupyter-lite", path=str(jupyter.parent)) is None:
        raise InputError(f'jupyter lite is not installed beside {sys.executable}: pip install -e ".[lite]"')
    downloads = cache_dir / "downloads"
    wheels = [wheel(entry, downloads) for entry in WHEELS]
    pyodide_tgz, highs_tgz = npm_tarball(PYODIDE, downloads), npm_tarball(HIGHS, downloads)
    kit = kit_wheel(cache_dir / "kit")

    # The lite folder the build reads: the chapters, and the Pyodide distribution at its well-known place.
    src = cache_dir / "src"
    shutil.rmtree(src, ignore_errors=True)
    files, pyodide = src / "files", src / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    _extract(pyodide_tgz, "package/", pyodide)
    _extract(highs_tgz, "package/build/", pyodide, ("highs.mjs", "highs.wasm"))
    source = notebooks_folder()
    data_files = {relative.as_posix(): (source / relative).read_bytes() for relative in notebook_files(source)
                  if relative.suffix != ".ipynb"}
    write_lock(pyodide, wheels, kit, data_files)
    for relative in notebook_files(source):
        if relative.suffix == ".ipynb" and relative.stem not in chapters:
            continue
        (files / relative).parent.mkdir(parents=True, exist_ok=True)
        data = (source / relative).read_bytes()
        if relative.suffix == ".ipynb":  # the Pyodide kernel is called "python"
            nb = json.loads(data)
            nb.setdefault("metadata", {})["kernelspec"] = KERNELSPEC
            data = (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode()
        (files / relative).write_bytes(data)
    settings = {"pyodideUrl": "./static/pyodide/pyodide.mjs", "disablePyPIFallback": True,
                "loadPyodideOptions": {"packages": list(PRELOAD), "env": {
                    "HOME": "/home/pyodide", "IPYTHONDIR": f"{SITE_PACKAGES}/{STARTUP_FOLDER}"}}}
    (src / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"appName": "N-queens by SAT and ILP", "litePluginSettings": {KERNEL_PLUGIN: settings},
                                # window.jupyterapp: how the browser test drives the kernel
                                "exposeAppInBrowser": True},
    }, indent=1))
    # Every cell drawn at once (not only those in view): widgets and figures keep their state when scrolled.
    (src / "overrides.json").write_text(json.dumps(SETTINGS_OVERRIDES, indent=1))

    shutil.rmtree(out, ignore_errors=True)
    command = [str(jupyter), "lite", "build", "--lite-dir", str(src), "--output-dir", str(out),
               "--contents", str(files), "--ignore-sys-prefix", "--apps", "lab",
               "--no-sourcemaps", "--no-libarchive"]
    for path in _extension_paths():
        command.append(f"--LiteBuildConfig.federated_extensions={path}")
    _say("jupyter lite build")
    proc = subprocess.run(command, cwd=src, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "JUPYTERLITE_NO_LIBARCHIVE": "1"})
    if proc.returncode != 0 or not (out / "index.html").is_file():
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise InputError(f"jupyter lite build failed:\n{tail}")
    if not (out / "static" / "pyodide" / "pyodide-lock.json").is_file():
        raise InputError("jupyter lite build left the Pyodide distribution out of the site")
    all_files = [p for p in out.rglob("*") if p.is_file()]
    return {"output": str(out), "seconds": round(time.perf_counter() - start, 1),
            "bytes": sum(p.stat().st_size for p in all_files), "files": len(all_files)}


def main() -> int:
    """``python book/build_lite.py [OUTPUT]`` (what ``make lite`` runs)."""
    try:
        built = build_lite(sys.argv[1] if len(sys.argv) > 1 else "build/lite")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{built['output']}: {built['files']} files, {float(str(built['bytes'])) / 1e6:.0f} MB, "
          f"built in {built['seconds']} s; serve it with: python -m http.server -d {built['output']} 8000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
