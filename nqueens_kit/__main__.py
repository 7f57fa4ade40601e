"""``python -m nqueens_kit`` is the ``nqueens-kit`` command."""

from .cli import run

if __name__ == "__main__":
    run()
