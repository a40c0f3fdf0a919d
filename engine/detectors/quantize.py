"""An int8 copy of an ONNX token classifier, built once from the installed model.

Rampart ships its weights as 4-bit blocks (``MatMulNBits``); onnxruntime's CPU kernel
for them computes in float32, so the shipped model costs as much as a float32 one.
``int8_model`` rewrites each ``MatMulNBits`` as a float ``MatMul`` (weights dequantized
exactly) and quantizes the weight matrices to int8 per output channel with
``onnxruntime.quantization.quantize_dynamic``, after onnxruntime's BERT fusions (one
``Attention`` node per layer, SkipLayerNorm, BiasGelu): about twice as fast on CPU, the
same spans on generated gold (docs/speed.md). The attention products (activation by
activation) stay float.

The file is derived from the installed package, never downloaded: it is written once
into a cache folder (``var/models`` by default, ``manage.py prepare_models`` or the
first load), named by the source's hash and ``BUILD_VERSION``, under a file lock so that
workers starting together build it once. Without the ``onnx`` package (needed only to
build) ``int8_model`` returns ``None`` and the caller keeps the shipped model.
Django-free.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)

BUILD_VERSION = 2


def default_cache_dir() -> Path:
    """``$ANONREVIEW_MODEL_CACHE`` or ``~/.cache/anonreview/models``."""
    env = os.environ.get("ANONREVIEW_MODEL_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "anonreview" / "models"


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def int8_path(source: Path, cache_dir: Path) -> Path:
    """Where the int8 copy of ``source`` lives in ``cache_dir`` (it may not exist yet)."""
    return cache_dir / f"{source.stem}-{_digest(source)}-int8-v{BUILD_VERSION}.onnx"


def _dequantize_nbits(model) -> int:
    """Replace each 4-bit ``MatMulNBits`` node by a float ``MatMul``; returns how many."""
    import numpy as np
    from onnx import helper, numpy_helper

    inits = {i.name: i for i in model.graph.initializer}
    nodes = []
    replaced = 0
    for node in model.graph.node:
        if node.op_type != "MatMulNBits":
            nodes.append(node)
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        k, n, bits, block = attrs["K"], attrs["N"], attrs["bits"], attrs["block_size"]
        if bits != 4 or (len(node.input) > 4 and any(node.input[4:])):
            raise ValueError("only plain 4-bit MatMulNBits nodes can be converted")
        blocks = (k + block - 1) // block
        packed = numpy_helper.to_array(inits[node.input[1]]).reshape(n, blocks, block // 2)
        q = np.empty((n, blocks, block), np.uint8)
        q[:, :, 0::2] = packed & 0x0F
        q[:, :, 1::2] = packed >> 4
        scales = numpy_helper.to_array(inits[node.input[2]]).astype(np.float32)
        if len(node.input) > 3 and node.input[3]:
            zp = numpy_helper.to_array(inits[node.input[3]]).reshape(n, -1)
            zero = np.empty((n, zp.shape[1] * 2), np.uint8)
            zero[:, 0::2] = zp & 0x0F
            zero[:, 1::2] = zp >> 4
            zero = zero[:, :blocks]
        else:
            zero = np.full((n, blocks), 8, np.uint8)
        weight = (q.astype(np.float32) - zero[:, :, None]) * scales.reshape(n, blocks)[:, :, None]
        weight = np.ascontiguousarray(weight.reshape(n, blocks * block)[:, :k].T)
        name = f"{node.input[1]}_dequantized"
        model.graph.initializer.append(numpy_helper.from_array(weight, name))
        nodes.append(
            helper.make_node("MatMul", [node.input[0], name], list(node.output), name=node.name)
        )
        replaced += 1
    used = {i for node in nodes for i in node.input}
    kept = [i for i in model.graph.initializer if i.name in used]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    return replaced


def build_int8(source: Path, target: Path) -> None:
    """Write the int8 copy of ``source`` to ``target`` (atomically)."""
    import onnx

    model = onnx.load(str(source))
    _dequantize_nbits(model)
    constants = {i.name for i in model.graph.initializer}
    # Only products with a weight matrix: the attention products stay float.
    weights = [
        node.name
        for node in model.graph.node
        if node.op_type == "MatMul" and any(i in constants for i in node.input)
    ]
    target.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantizer logs a line per tensor, and advice
    try:
        _quantize(model, weights, target)
    finally:
        root.setLevel(level)


def _quantize(model, weights: list[str], target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        floats = Path(tmp) / "float.onnx"
        onnx.save(model, str(floats))
        fused = _fuse_attention(floats, Path(tmp) / "fused.onnx")
        out = Path(tmp) / "int8.onnx"
        if fused is not None:
            # Fused Attention nodes carry the Q/K/V weights: quantize them (QAttention)
            # together with the remaining products.
            quantize_dynamic(
                str(fused),
                str(out),
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul", "Attention"],
            )
        else:
            quantize_dynamic(
                str(floats),
                str(out),
                weight_type=QuantType.QInt8,
                per_channel=True,
                nodes_to_quantize=weights,
            )
        os.replace(out, target)


def _fuse_attention(source: Path, target: Path) -> Path | None:
    """onnxruntime's BERT graph fusions (Attention, SkipLayerNorm, BiasGelu) written to
    ``target``; ``None`` when nothing fuses (not a BERT graph) or the optimizer fails."""
    try:
        from onnxruntime.transformers import optimizer

        fused = optimizer.optimize_model(
            str(source), model_type="bert", num_heads=0, hidden_size=0, opt_level=1
        )
        if not fused.get_fused_operator_statistics().get("Attention"):
            return None
        fused.save_model_to_file(str(target))
    except Exception as exc:  # the plain int8 model is still twice as fast
        logger.warning("attention fusion skipped: %s", type(exc).__name__)
        return None
    return target


def int8_model(source: Path, cache_dir: Path | None = None) -> Path | None:
    """The int8 copy of ``source``, built on first use; ``None`` when it cannot be built."""
    cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
    try:
        target = int8_path(source, cache_dir)
    except OSError:
        return None
    if target.exists():
        return target
    try:
        import onnx  # noqa: F401 - only needed to build
    except ImportError:
        logger.warning("the onnx package is missing: using the 4-bit transformer model as shipped")
        return None
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        with _locked(cache_dir / ".build.lock"):
            if not target.exists():  # another worker may have built it meanwhile
                logger.info("building the int8 transformer model (once)")
                build_int8(source, target)
    except Exception as exc:  # a failed build must not stop annotation
        logger.warning("could not build the int8 transformer model: %s", type(exc).__name__)
        return None
    return target


class _locked:
    """An exclusive advisory lock on ``path`` (no-op where ``fcntl`` is missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = self.path.open("a")
        try:
            import fcntl

            fcntl.flock(self.fh, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - Windows
            pass
        return self

    def __exit__(self, *exc) -> None:
        self.fh.close()  # closing releases the lock
