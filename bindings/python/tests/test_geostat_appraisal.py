"""cadastre.geostat and cadastre.appraisal from Python: the values the C++ unit tests check
by hand, reached through the binding (dicts in, dicts out, CadastreError on bad input)."""
import math

import pytest

import cadastre
from cadastre import appraisal, geostat

SPH = {"type": "spherical", "nugget": 0.0, "psill": 1.0, "range": 10.0}
THREE = [geostat.Sample(0, 0, 1), (3, 0, 2), (0, 4, 3)]


def test_hand_solved_kriging_system_with_its_lagrange_multiplier():
    # Γλ + μ1 = γ0 solved by hand (tests/unit/geostat/test_geostat.cpp)
    p = geostat.krige(THREE, SPH, 1, 1)
    assert p["value"] == pytest.approx(1.6921619408, rel=1e-9)
    assert p["variance"] == pytest.approx(0.2648998508, rel=1e-9)
    assert p["lagrange"] == pytest.approx(-0.0301847138, rel=1e-8)
    assert sum(p["weights"]) == pytest.approx(1.0)
    assert p["indices"] == [0, 1, 2]  # nearest first: √2, √5, √10
    z = geostat.lognormal_back_transform(p)
    assert z["value"] == pytest.approx(6.390398183948551, rel=1e-9)
    assert z["variance"] == pytest.approx(12.38593756840654, rel=1e-9)
    # the number form: exp(1 + 0.5/2 − 0.1) = exp(1.15)
    assert geostat.lognormal_back_transform(1.0, 0.5, 0.1)["value"] == pytest.approx(math.exp(1.15))


def test_grid_cells_equal_point_kriging_and_back_transform_keeps_nodata():
    samples = [(0.5, 0.5, 1.0), (2.5, 0.5, 2.0), (0.5, 2.5, 1.5), (2.5, 2.5, 0.5)]
    model = {"type": "exponential", "nugget": 0.05, "psill": 0.5, "range": 2.0}
    spec = {"origin_x": 0, "origin_y": 3, "cell_size": 1, "rows": 3, "cols": 3}
    g = geostat.krige_grid(samples, model, spec, maxdist=1.2, nodata=-9999, threads=2)
    assert len(g["values"]) == 9
    assert g["neighbours"][4] == 0 and g["values"][4] == -9999  # centre: no sample within 1.2
    p = geostat.krige(samples, model, 1.5, 2.5, maxdist=1.2)  # cell (0, 1)
    assert g["values"][1] == p["value"]
    assert g["lagranges"][1] == p["lagrange"]
    z = geostat.lognormal_back_transform(g)
    assert z["values"][4] == -9999
    masked = geostat.krige_grid(samples, model, spec, maxdist=1.2, nodata=-9999,
                                mask=[True, False, True, True, True, True, True, True, True])
    assert masked["values"][1] == -9999 and masked["values"][0] == g["values"][0]
    assert z["values"][1] == pytest.approx(math.exp(p["value"] + p["variance"] / 2 - p["lagrange"]))


def test_variogram_and_fit_recover_a_known_model():
    # a 1-D check by hand: x = 0..3, z = 1, 3, 2, 5; h = 1: γ = (4 + 1 + 9) / 6
    bins = geostat.experimental_variogram([(0, 0, 1), (1, 0, 3), (2, 0, 2), (3, 0, 5)], cutoff=3.5, width=1)
    assert bins[0]["np"] == 3
    assert bins[0]["gamma"] == pytest.approx(14 / 6)
    # synthetic bins of Exp(nugget 0.1, psill 0.9, range 50): the fit finds them
    truth = {"type": "exponential", "nugget": 0.1, "psill": 0.9, "range": 50.0}
    synth = [{"np": 100, "dist": h, "gamma": 0.1 + 0.9 * (1 - math.exp(-h / 50.0))} for h in range(10, 310, 20)]
    f = geostat.fit_variogram(synth, "exponential")
    assert f["converged"]
    for key in ("nugget", "psill", "range"):
        assert f["model"][key] == pytest.approx(truth[key], rel=1e-6)


def test_geostat_errors_are_cadastre_errors_naming_the_field():
    with pytest.raises(cadastre.CadastreError) as e:
        geostat.krige(THREE, dict(SPH, range=-1), 1, 1)
    assert e.value.field == "alcance"
    with pytest.raises(cadastre.CadastreError) as e:
        geostat.krige([(1, 1, 1), (1, 1, 2)], SPH, 0, 0)
    assert "singular" in str(e.value)
    with pytest.raises(cadastre.CadastreError) as e:
        geostat.fit_variogram([], "cubic")
    assert e.value.field == "modelo"
    with pytest.raises(cadastre.CadastreError) as e:
        geostat.lognormal_back_transform(1.0, -1.0, 0.0)
    assert e.value.field == "variancia"


def test_regression_fit_and_predict_by_hand():
    # x = 1..4, y = 1, 3, 2, 4: b1 = Sxy/Sxx = 4/5 = 0.8, b0 = 2.5 − 0.8·2.5 = 0.5,
    # SSE = 1.8, SST = 5 → R² = 0.64
    m = appraisal.fit({"name": "y", "values": [1, 3, 2, 4]}, [{"name": "x", "values": [1, 2, 3, 4]}])
    assert [c["name"] for c in m.coefficients] == ["intercepto", "x"]
    assert m.coefficients[1]["estimate"] == pytest.approx(0.8)
    assert m.coefficients[0]["estimate"] == pytest.approx(0.5)
    assert m.r2 == pytest.approx(0.64)
    assert m.as_dict()["sse"] == pytest.approx(1.8)
    p = appraisal.predict(m, [5])
    assert p["estimate"] == pytest.approx(0.5 + 0.8 * 5)
    assert p["confidence"]["lower"] < p["estimate"] < p["confidence"]["upper"]
    assert p["prediction"]["upper"] - p["prediction"]["lower"] > p["confidence"]["upper"] - p["confidence"]["lower"]
    with pytest.raises(cadastre.CadastreError) as e:
        appraisal.fit({"name": "y", "values": [1, 3, 2, 4], "transform": "ln"},
                      [{"name": "x", "values": [1, 2, 3, 4], "transform": "cubo"}])
    assert e.value.field == "transform"


def test_ratio_study_by_hand():
    # r = 0.90 1.00 0.95 1.05 1.10: median 1.00, COD 6.0, weighted mean 1.01, PRD 0.990099
    r = appraisal.ratio_study([90, 200, 190, 420, 110], [100, 200, 200, 400, 100])
    assert r["median"]["value"] == pytest.approx(1.0)
    assert r["cod"]["value"] == pytest.approx(6.0)
    assert r["weighted_mean"] == pytest.approx(1.01)
    assert r["prd"]["value"] == pytest.approx(1 / 1.01)
    assert r["prb"]["value"] == pytest.approx(0.0235479808, rel=1e-8)
    assert r["pass"] is True
    # a regressive roll fails COD, PRD and PRB
    bad = appraisal.ratio_study([100, 150, 200, 240, 270, 300], [80, 150, 220, 300, 360, 430])
    assert bad["pass"] is False
    assert bad["prd"]["pass"] is False and bad["cod"]["value"] == pytest.approx(17.775853538)
    with pytest.raises(cadastre.CadastreError) as e:
        appraisal.ratio_study([1, 2, 3], [1, 2])
    assert e.value.field == "vendas"
