"""A heat map of the attacker's chance in Hy Breasil battles (``realms odds --table``).

Rows are attackers, columns defenders (1..n each); every cell shows the exact chance that
the attacker takes the area (its wins plus the defender's retreats, §6.3.1–6.3.2) under
the given terrain, modifiers and policy.  The file type follows the suffix: ``.png`` or
``.svg``.  matplotlib is imported only here, with the non-interactive ``Agg`` backend.
"""

from __future__ import annotations

from pathlib import Path

from .odds import OddsError, odds_table

FORMATS = (".png", ".svg")


def describe(modifiers: dict) -> str:
    """A short title for the battle conditions."""
    parts = [modifiers.get("terrain", "plains")]
    if modifiers.get("fervour"):
        parts.append("religious fervour")
    if modifiers.get("attacker_race"):
        parts.append(f"attacker {modifiers['attacker_race']}")
    if modifiers.get("defender_race"):
        parts.append(f"defender {modifiers['defender_race']}")
    if modifiers.get("city"):
        parts.append("defending city")
    if modifiers.get("attacker_retreat_below"):
        parts.append(f"attacker retreats below {modifiers['attacker_retreat_below']}")
    if modifiers.get("defender_retreat_below"):
        parts.append(f"defender retreats below {modifiers['defender_retreat_below']}")
    parts.append(f"policy {modifiers.get('policy', 'greedy')}")
    return ", ".join(parts)


def write_chart(path: str | Path, n: int, **modifiers) -> Path:
    """Solve the ``n``×``n`` table and write it as a heat map to ``path`` (.png or .svg).

    Returns the path written.  Raises :class:`OddsError` for a bad size, suffix or
    modifier (before anything is written).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OddsError(f"the chart file must end in .png or .svg, got {path.name!r}")
    table = odds_table(n, **modifiers)

    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    size = max(5.0, 0.5 * n + 2.0)
    with plt.rc_context({"svg.fonttype": "none"}):  # SVG text stays text
        fig, ax = plt.subplots(figsize=(size + 1.2, size))
        try:
            _draw(fig, ax, table, n, modifiers, path, suffix)
        finally:
            plt.close(fig)
    return path


def _draw(fig, ax, table, n: int, modifiers: dict, path: Path, suffix: str) -> None:
    """Cells coloured by the chance, annotated with it in percent; then save."""
    im = ax.imshow(table * 100, cmap="RdYlGn", vmin=0, vmax=100, origin="lower",
                   extent=(0.5, n + 0.5, 0.5, n + 0.5))
    ax.set_xlabel("defenders")
    ax.set_ylabel("attackers")
    ticks = range(1, n + 1) if n <= 30 else range(1, n + 1, max(1, n // 15))
    ax.set_xticks(list(ticks))
    ax.set_yticks(list(ticks))
    ax.set_title(f"Hy Breasil: chance the attacker takes the area\n{describe(modifiers)}", fontsize=10)
    fig.colorbar(im, ax=ax, label="%", fraction=0.046, pad=0.04)
    if n <= 30:
        font = 8 if n <= 12 else 7 if n <= 16 else 6 if n <= 20 else 4.5
        for a in range(n):
            for d in range(n):
                v = table[a, d] * 100
                text = f"{v:.0f}" if 0.5 <= v <= 99.5 else (f"{v:.1f}" if 0.05 <= v <= 99.95 else
                                                              ("<0.1" if v < 50 else ">99.9"))
                ax.text(d + 1, a + 1, text, ha="center", va="center", fontsize=font,
                        color="black" if 20 <= v <= 80 else "white")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=suffix[1:], dpi=120, bbox_inches="tight",
                metadata={"Software": None} if suffix == ".png" else {"Date": None})
