"""ML dtype promotion of many frameworks as reviewed rules, and ONNX ``Cast`` bit for bit.

The same Rust crates as the ``promo`` command: every answer here is the one
``promo query`` prints for the same question, and every cast is bit-identical to
``promo convert``; ``compute`` does a framework's arithmetic on numpy arrays, bit for bit.
"""

import os
from typing import Any, Literal, Mapping, Optional, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "PromotionError",
    "RuleFileError",
    "DType",
    "_dtype",
    "RuleSet",
    "Diff",
    "Difference",
    "promote",
    "result_type",
    "explain",
    "Outcome",
    "apply",
    "diff",
    "rule_sets",
    "load",
    "finfo",
    "iinfo",
    "can_cast",
    "cast",
    "compute",
    "backend",
]

__version__: str

class PromotionError(TypeError):
    """A rule set refused the promotion; ``str()`` is the framework's reason."""

    reason: str
    """The reason, as ``promo query`` prints it after ``refused:``."""

class RuleFileError(ValueError):
    """A rule file that does not load: ``str()`` is the ``file:line:col`` diagnostic
    ``promo check`` prints."""

@final
class DType:
    """A promo dtype, weakly typed or not (``str()`` is ``"f16"`` or ``"weak:i32"``).

    Equal to its names (``DType == "float16"``), to the matching ``numpy.dtype``
    and to another ``DType`` of the same dtype and weakness; ``numpy.dtype(d)``
    converts where numpy or ml_dtypes has the dtype.
    """

    @property
    def name(self) -> str:
        """promo's canonical name (``"f8e4m3fn"``), without ``weak:``."""
    @property
    def weak(self) -> bool:
        """Whether the result is weakly typed (JAX ``weak_type``, TensorFlow ``WeakTensor``)."""
    @property
    def bits(self) -> int:
        """Bits of one element."""
    @property
    def numpy_name(self) -> Optional[str]:
        """The numpy or ml_dtypes name (``"float8_e4m3fn"``), or ``None`` where neither has the dtype."""
    @property
    def dtype(self) -> np.dtype[Any]:
        """The ``numpy.dtype`` (ml_dtypes' for the narrow formats); ``TypeError`` where there is none."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class RuleSet:
    """A rule set: one of the bundled ones (``rule_sets()``) or a rule file (``load``)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def path(self) -> str:
        """``"bundled rules/NAME.toml"`` or the file's path."""
    @property
    def dtypes(self) -> list[DType]: ...
    @property
    def ops(self) -> list[str]:
        """The operations the rule set covers (empty: it answers every operation alike)."""
    @property
    def options(self) -> dict[str, str]:
        """Each option's default, as ``promo list`` prints it."""
    def promote(self, lhs: _Operand, rhs: _Operand, /, *, op: str = "add", **options: _OptionValue) -> DType: ...
    def result_type(self, *operands: _Operand, op: str = "add", **options: _OptionValue) -> DType: ...
    def apply(
        self,
        op: str,
        *operands: _Operand,
        out: Optional[_Operand] = None,
        dtype: Optional[_DTypeLike] = None,
        **options: _OptionValue,
    ) -> Outcome: ...

_Operand = Union[str, DType, np.dtype[Any], type, npt.NDArray[Any], np.generic, bool, int, float, complex]
"""What an operand may be:

- an operand string of ``promo query``: ``"f16"``, ``"scalar:i8"``, ``"weak:f32"``, ``"python:float"``;
- a dtype as the rule set or a framework spells it: ``"float8_e4m3fn"``, ``"torch.bfloat16"``, ``"int8"``;
- a ``numpy.dtype`` (ml_dtypes' included) or a numpy scalar type (``numpy.float32``): a tensor;
- a numpy array (a 0-d array or a numpy scalar is a rank-0 operand, ``scalar:DTYPE``);
- a Python value or type (``3``, ``2.5``, ``True``, ``1j``, ``int``, ``float``): a Python scalar.
"""

_DTypeLike = Union[str, DType, np.dtype[Any], type]
_OptionValue = Union[bool, int, str, DType, np.dtype[Any]]
_Rules = Union[str, "os.PathLike[str]", RuleSet]

def rule_sets() -> list[RuleSet]:
    """The bundled rule sets, in ``promo list`` order."""

def load(path: Union[str, "os.PathLike[str]"]) -> RuleSet:
    """Loads a rule file; ``RuleFileError`` if it is invalid, ``OSError`` if unreadable."""

def promote(rules: _Rules, lhs: _Operand, rhs: _Operand, /, *, op: str = "add", **options: _OptionValue) -> DType:
    """The common dtype of ``lhs`` and ``rhs`` under ``op``; ``PromotionError`` when refused."""

def result_type(rules: _Rules, *operands: _Operand, op: str = "add", **options: _OptionValue) -> DType:
    """The common dtype of every operand, promoted left to right; for an operation that is not elementwise
    (``op="sqrt"`` of one operand, ``"sum"``, ``"matmul"``, ``"concatenate"``), its result as ``apply`` gives it."""

def explain(
    rules: _Rules,
    *operands: _Operand,
    op: str = "add",
    out: Optional[_Operand] = None,
    dtype: Optional[_DTypeLike] = None,
    **options: _OptionValue,
) -> str:
    """The text ``promo explain`` prints: the answer and which statement of the rule file decided each cell it reads."""

@final
class Outcome:
    """What an operation gives: its result and the dtype the framework computes in."""

    result: DType
    compute: DType
    def __eq__(self, other: object, /) -> bool: ...

def apply(
    rules: _Rules,
    op: str,
    *operands: _Operand,
    out: Optional[_Operand] = None,
    dtype: Optional[_DTypeLike] = None,
    **options: _OptionValue,
) -> Outcome:
    """``op`` on its operands (one for ``sqrt`` or ``sum``, two for ``add`` or ``matmul``, two or more for
    ``concatenate``), ``dtype=`` a reduction's argument, ``out=`` the array written into; ``PromotionError``
    when the framework refuses, ``ValueError`` for a count the operation does not take."""

@final
class Difference:
    """One cell where two rule sets disagree: each side's dtype, or ``None`` and the reason it refused.

    As in ``promo diff``, cells compare dtypes: a weakly typed result shows as its dtype.
    """

    lhs: DType
    rhs: DType
    a: Optional[DType]
    b: Optional[DType]
    a_refused: Optional[str]
    b_refused: Optional[str]

@final
class Diff:
    """Where two rule sets, or two option settings of one, disagree (``str()`` is ``promo diff``'s text)."""

    a: str
    b: str
    op: str
    dtypes: list[DType]
    cells: int
    agree: int
    differences: list[Difference]
    text: str

def diff(
    a: _Rules,
    b: _Rules,
    /,
    *,
    op: str = "add",
    a_options: Optional[Mapping[str, _OptionValue]] = None,
    b_options: Optional[Mapping[str, _OptionValue]] = None,
    **options: _OptionValue,
) -> Diff:
    """Every tensor-with-tensor cell where ``a`` and ``b`` disagree; ``options`` apply to both sides."""

_Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]

def can_cast(from_: _DTypeLike, to: _DTypeLike, casting: _Casting = "safe") -> bool: ...

@final
class finfo:
    """NumPy's ``finfo`` fields for every float format (agrees with ``ml_dtypes.finfo``)."""

    def __new__(cls, dtype: _DTypeLike) -> finfo: ...
    dtype: DType
    bits: int
    max: float
    min: float
    eps: float
    epsneg: float
    tiny: float
    smallest_normal: float
    smallest_subnormal: float
    resolution: float
    precision: int
    nmant: int
    nexp: int
    iexp: int
    minexp: int
    maxexp: int
    machep: int
    negep: int

@final
class iinfo:
    def __new__(cls, dtype: _DTypeLike) -> iinfo: ...
    dtype: DType
    bits: int
    min: int
    max: int

def cast(
    array: npt.ArrayLike,
    dtype: _DTypeLike,
    /,
    *,
    saturate: Optional[bool] = None,
    round_mode: Literal["up", "down", "nearest"] = "up",
    out: Optional[npt.NDArray[Any]] = None,
    from_dtype: Optional[_DTypeLike] = None,
) -> npt.NDArray[Any]:
    """ONNX ``Cast`` of every element, bit-identical to ``promo convert``.

    ``saturate=None`` is each format's own rule (the ONNX float8 formats clamp, as
    ONNX's default ``saturate=1``; ml_dtypes' formats do not); ``True`` and
    ``False`` apply to every format. The result has ``array``'s shape and the
    ml_dtypes dtype (sub-byte formats one element per byte, as ml_dtypes lays them
    out); without ml_dtypes, and for Triton's ``f8e4m3b15``, which neither has, the
    narrow formats come back as their unsigned codes. ``from_dtype`` reads such codes
    back: the array's unsigned integers are the codes of ``from_dtype``. Large arrays
    convert on every core, without the GIL.
    """

_ComputeOperand = Union[npt.NDArray[Any], np.generic, bool, int, float]
"""An operand of ``compute``: a numpy array (a numpy scalar is a 0-d array) or a Python ``bool``, ``int`` or ``float``."""

def compute(
    rules: _Rules,
    op: str,
    a: _ComputeOperand,
    b: _ComputeOperand,
    /,
    *,
    out: Optional[npt.NDArray[Any]] = None,
    **options: _OptionValue,
) -> npt.NDArray[Any]:
    """``a OP b`` computed bit for bit as the rule set's framework computes it.

    ``op`` is ``add``, ``subtract``, ``multiply``, ``divide``, ``maximum``, ``minimum`` or a comparison
    (or an alias: ``"+"``, ``"<"``); ``a`` and ``b`` are numpy arrays of any dtype promo knows (ml_dtypes'
    included), strides, byte order and shapes that broadcast, or one of them a Python scalar. Returns a new
    array of the framework's result dtype and the broadcast shape, or ``out=`` written. ``PromotionError``
    when the framework refuses, ``OverflowError`` for a Python scalar it refuses, ``ValueError`` for what
    promo does not compute and for shapes that do not broadcast.
    """

def _dtype(text: str) -> DType:
    """Rebuilds a ``DType`` from its ``str()`` (pickling)."""

def backend() -> str:
    """The SIMD backend casts use on this CPU: ``"avx512"``, ``"avx2"`` or ``"portable"``."""
