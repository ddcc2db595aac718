"""Mass appraisal: multiple linear regression with transforms and the NBR 14653-2 grades,
prediction with intervals, and the IAAO ratio study. Errors raise cadastre.CadastreError.

Variables are dicts ``{"name", "values", "transform"}`` with transform one of ``"none"``,
``"ln"``, ``"inverse"``, ``"square"``, ``"sqrt"``.

    >>> from cadastre import appraisal
    >>> model = appraisal.fit({"name": "preco", "values": y, "transform": "ln"},
    ...                       [{"name": "area", "values": area}])
    >>> appraisal.predict(model, [360])["estimate"]
"""
from . import _cadastre

Regression = _cadastre.Regression


def fit(dependent, regressors):
    """Least squares fit; a Regression (attributes r2, f, coefficients... and as_dict())."""
    return _cadastre.regression_fit(dependent, regressors)


def predict(model, x, level=0.80):
    """Estimate at ``x`` (original scale of each regressor) with its confidence and
    prediction intervals and the NBR 14653-2 precisão grade."""
    return _cadastre.regression_predict(model, list(x), level)


def ratio_study(assessed, sale_prices, level=0.95, cod_max=15.0):
    """IAAO ratio study: median (CI), mean, weighted mean, COD, PRD, PRB with their limits
    and ``pass``; ``cod_max`` 15 is the residential (older/heterogeneous areas) limit."""
    return _cadastre.ratio_study(list(assessed), list(sale_prices), level, cod_max)


__all__ = ["Regression", "fit", "predict", "ratio_study"]
