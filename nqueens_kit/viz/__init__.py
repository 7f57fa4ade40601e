"""Figures: :mod:`.boards` (boards, galleries, heat maps, branch-and-bound trees), :mod:`.charts` (timing
results), :mod:`.figure` (what both share, and :func:`~.figure.save_figure`), :mod:`.style` (the look each
method asks for).  Nothing is imported here, so ``nqueens_kit.viz.style`` loads without matplotlib."""
