"""Scale shapes in plain integer arithmetic, so that the torch fake implementations also
work on symbolic sizes (torch.SymInt). Must agree with _core.scale_shape (tested)."""


def scale_shape(rows: int, k: int, layout: str = "swizzled") -> tuple[int, int]:
    """(rows, cols) of the E8M0 scales of a (rows, k) operand in `layout`."""
    cols = -(-k // 32)
    if layout == "linear":
        return (rows, cols)
    if layout == "swizzled":
        return (-(-rows // 128) * 128, -(-cols // 4) * 4)
    raise ValueError(f"scale_shape: layout: expected 'swizzled' or 'linear', got {layout!r}")
