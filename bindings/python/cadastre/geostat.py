"""Geostatistics: experimental variogram, model fit (gstat's weighted least squares) and
ordinary kriging, with the lognormal back-transform. Coordinates in metres (UTM).

Samples are ``cadastre.geostat.Sample(x, y, value)`` objects or ``(x, y, value)`` tuples.
Models are dicts ``{"type": "spherical"|"exponential"|"gaussian", "nugget", "psill",
"range"}`` (gstat's ``vgm(psill, model, range, nugget)``). Errors raise
``cadastre.CadastreError``. Conventions and formulas: docs/geostatistics.md.

    >>> from cadastre import geostat
    >>> bins = geostat.experimental_variogram(samples)
    >>> model = geostat.fit_variogram(bins, "spherical")["model"]
    >>> grid = geostat.krige_grid(samples, model, {"origin_x": 0, "origin_y": 1000,
    ...                           "cell_size": 10, "rows": 100, "cols": 100}, nmax=20)
"""
from . import _cadastre

Sample = _cadastre.Sample


def experimental_variogram(samples, cutoff=None, width=None, n_lags=15, direction=None, tolerance=22.5):
    """Bins ``[{"lower", "upper", "np", "dist", "gamma"}]`` (gstat's defaults: cutoff = a third
    of the bounding box diagonal, 15 bins; ``direction`` in degrees clockwise from north)."""
    return _cadastre.experimental_variogram(samples, cutoff, width, n_lags, direction, tolerance)


def fit_variogram(bins, type="spherical", start=None, max_iterations=200, tolerance=1e-16):
    """Weighted least squares fit (weights N/h², gstat's fit.method 7):
    ``{"model", "wsse", "iterations", "converged"}``."""
    return _cadastre.fit_variogram(bins, type, start, max_iterations, tolerance)


def krige(samples, model, x, y, nmax=0, maxdist=None):
    """Ordinary kriging at one point: ``{"value", "variance", "lagrange", "neighbours",
    "weights", "indices"}`` (``lagrange``: μ of Γλ + μ1 = γ0)."""
    return _cadastre.krige(samples, model, x, y, nmax, maxdist)


def krige_grid(samples, model, grid, nmax=0, maxdist=None, nodata=None, threads=0, mask=None):
    """Ordinary kriging on a north-up grid ``{"origin_x", "origin_y" (upper-left corner),
    "cell_size", "rows", "cols"}``; returns it with flat row-major lists ``values``,
    ``variances``, ``lagranges`` and ``neighbours`` (0 marks a nodata cell). ``mask``: a
    row-major sequence of 0/1, cells with 0 left as ``nodata`` (required then)."""
    if mask is not None:
        mask = [1 if m else 0 for m in mask]
    return _cadastre.krige_grid(samples, model, grid, nmax, maxdist, nodata, threads, mask)


def lognormal_back_transform(estimate, variance=None, lagrange=None):
    """Back-transform of a kriging of ln(z): Z = exp(Ŷ + σ²/2 − μ), Var = Z²(exp σ² − 1).

    ``estimate`` is a grid dict from krige_grid, a prediction dict from krige, or the
    number Ŷ with ``variance`` and ``lagrange`` given."""
    if isinstance(estimate, dict) and "values" in estimate:
        return _cadastre.lognormal_back_transform_grid(estimate)
    if isinstance(estimate, dict):
        return _cadastre.lognormal_back_transform_point(estimate["value"], estimate["variance"],
                                                        estimate["lagrange"])
    if variance is None or lagrange is None:
        raise TypeError("lognormal_back_transform(value, variance, lagrange)")
    return _cadastre.lognormal_back_transform_point(estimate, variance, lagrange)


__all__ = ["Sample", "experimental_variogram", "fit_variogram", "krige", "krige_grid",
           "lognormal_back_transform"]
