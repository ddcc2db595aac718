"""The Python binding as plugin authors use it: dicts in, dicts out, CadastreError on bad input."""
import math

import pytest

import cadastre

LAND = {"area": 360, "frente": 12, "valor_m2": 850, "topografia": "declive_ate_5",
        "pedologia": "seco", "situacao": "esquina"}


def test_land_value_matches_the_hand_computed_value_and_explains_each_factor():
    r = cadastre.land_value(LAND)
    ft = (12 / 10) ** 0.25
    assert r["valor"] == pytest.approx(360 * 850 * ft * 1.0 * 0.95 * 1.0 * 1.10, rel=1e-12)
    factors = {f["nome"]: f for f in r["fatores"]}
    assert factors["Fsit"]["valor"] == pytest.approx(1.10)
    assert "esquina" in factors["Fsit"]["entrada"]
    assert factors["Fp"]["valor"] == 1.0


def test_depth_factor_check_values_of_the_design():
    for pe, fp in [(10, 0.6325), (20, 0.8944), (50, 0.8944), (80, 0.7071)]:
        r = cadastre.land_value(dict(LAND, area=10 * pe, frente=10))
        assert r["intermediarios"]["Fp"] == pytest.approx(fp, abs=1e-4)


def test_construction_value_uses_ross_heidecke():
    r = cadastre.construction_value({"area_construida": 140, "padrao": "R1-N", "idade": 7,
                                     "conservacao": "c", "uso": "residencial"})
    assert r["intermediarios"]["d"] == pytest.approx(0.0788, abs=1e-4)
    assert r["valor"] == pytest.approx(140 * 2074.23 * (0.2 + 0.8 * (1 - r["intermediarios"]["d"])), rel=1e-9)


def test_iptu_with_a_custom_marginal_profile():
    profile = {"aliquotas": {"residencial": {"modo": "marginal",
                                             "faixas": [{"ate": 100000, "aliquota": 0.005}, {"aliquota": 0.01}]}}}
    r = cadastre.iptu({"uso": "residencial", "valor_terreno": 300000}, profile)
    assert r["valor"] == pytest.approx(100000 * 0.005 + 200000 * 0.01)


def test_invalid_input_raises_cadastre_error_naming_the_field():
    with pytest.raises(cadastre.CadastreError) as e:
        cadastre.land_value(dict(LAND, frente=0))
    assert e.value.field == "frente"
    assert e.value.code == "parametro_invalido"
    with pytest.raises(cadastre.CadastreError) as e:
        cadastre.land_value(dict(LAND, topografia="montanha"))
    assert e.value.code == "codigo_desconhecido"


def test_tile_math():
    assert cadastre.tile_for_lonlat(-46.6333, -23.5505, 12) == (1517, 2323, 12)
    assert cadastre.tile_for_lonlat(0, 0, 0) == (0, 0, 0)
    min_lon, min_lat, max_lon, max_lat = cadastre.tile_bounds(0, 0, 1)
    assert (min_lon, max_lon) == (-180, 0)
    assert max_lat == pytest.approx(85.0511287798, abs=1e-9)
    assert cadastre.quadkey(3, 5, 3) == "213"
    with pytest.raises(cadastre.CadastreError):
        cadastre.tile_for_lonlat(0, 0, 25)


def test_tiles_covering_an_l_shape_omits_the_notch_tile():
    l_shape = {"type": "Polygon", "coordinates": [[[-47.10, -22.98], [-46.95, -22.98], [-46.95, -22.93],
                                                   [-47.05, -22.93], [-47.05, -22.85], [-47.10, -22.85],
                                                   [-47.10, -22.98]]]}
    tiles = sorted(cadastre.tiles_covering(l_shape, 12))
    assert tiles == [(1512, 2315, 12), (1512, 2316, 12), (1513, 2316, 12)]


def test_status_machine():
    assert cadastre.next_status("agendado") == "em_progresso"
    assert cadastre.next_status("em_progresso") == "concluido"
    with pytest.raises(cadastre.CadastreError) as e:
        cadastre.next_status("concluido")
    assert e.value.code == "transicao_invalida"
    assert "concluido" in str(e.value)


def test_free_slots():
    agenda = {"duracao_slot_minutos": 60, "vistoriadores": ["ana"],
              "semana": {"segunda": [{"inicio": "08:00", "fim": "10:00"}]}}
    taken = [{"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00", "vistoriador": "ana"}]
    slots = cadastre.free_slots(agenda, taken, "2026-03-02", "2026-03-08", now="2026-03-01T00:00:00-03:00")
    assert [s["inicio"] for s in slots] == ["2026-03-02T09:00:00-03:00"]
    assert slots[0]["livres"] == 1 and slots[0]["vistoriadores_livres"] == ["ana"]
