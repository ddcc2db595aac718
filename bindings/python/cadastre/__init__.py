"""libcadastre for Python: property valuation, XYZ tile math and inspection scheduling;
geostatistics in ``cadastre.geostat`` and mass appraisal in ``cadastre.appraisal``.

Everything runs in the compiled C++ library; this module only converts between Python
dicts/lists and the library's JSON shapes. Errors raise CadastreError with ``.code`` (a
stable string such as ``"campo_obrigatorio"``) and ``.field`` (the offending input).

    >>> import cadastre
    >>> cadastre.land_value({"area": 300, "frente": 10, "valor_m2": 500,
    ...                      "topografia": "plano", "pedologia": "seco", "situacao": "meio_quadra"})["valor"]
"""
import json as _json


class CadastreError(Exception):
    """A libcadastre error: ``code`` is the stable error code, ``field`` the input named."""

    def __init__(self, message, code="erro_interno", field=""):
        super().__init__(message)
        self.code = code
        self.field = field


from . import _cadastre  # noqa: E402  (CadastreError must exist before the module loads)


def _profile_text(profile):
    if profile is None:
        return ""
    return profile if isinstance(profile, str) else _json.dumps(profile)


def _geojson_text(geometry):
    return geometry if isinstance(geometry, str) else _json.dumps(geometry)


def land_value(inputs, profile=None):
    """Land value (terreno): ``{"valor", "fatores", ...}`` with the full breakdown."""
    return _json.loads(_cadastre.land_value_json(_json.dumps(inputs), _profile_text(profile)))


def construction_value(inputs, profile=None):
    """Construction value (construção, Ross–Heidecke depreciation) with breakdown."""
    return _json.loads(_cadastre.construction_value_json(_json.dumps(inputs), _profile_text(profile)))


def iptu(inputs, profile=None):
    """Property tax (IPTU) with VVI, rates applied and breakdown."""
    return _json.loads(_cadastre.iptu_json(_json.dumps(inputs), _profile_text(profile)))


def tile_for_lonlat(lon, lat, z):
    """The XYZ tile ``(x, y, z)`` holding a lon/lat point at zoom ``z``."""
    return _cadastre.tile_for_lonlat(lon, lat, z)


def tile_bounds(x, y, z):
    """``(min_lon, min_lat, max_lon, max_lat)`` of a tile."""
    return _cadastre.tile_bounds(x, y, z)


def tiles_covering(geojson, z, max_tiles=10000):
    """Tiles a GeoJSON geometry (text or dict) actually touches at zoom ``z``."""
    return _cadastre.tiles_covering(_geojson_text(geojson), z, max_tiles)


def quadkey(x, y, z):
    """Bing-style quadkey of a tile."""
    return _cadastre.quadkey(x, y, z)


def next_status(status):
    """The reservation status after ``status`` (agendado → em_progresso → concluido)."""
    return _cadastre.next_status(status)


def free_slots(agenda, reservations, start, end, now=None):
    """Free inspection slots between local dates ``start`` and ``end`` (YYYY-MM-DD)."""
    agenda_text = agenda if isinstance(agenda, str) else _json.dumps(agenda)
    reservations_text = reservations if isinstance(reservations, str) else _json.dumps(reservations)
    return _json.loads(_cadastre.free_slots_json(agenda_text, reservations_text, start, end, now))


from . import appraisal, geostat  # noqa: E402  (submodules: cadastre.geostat, cadastre.appraisal)

__all__ = ["appraisal", "geostat", "CadastreError", "land_value", "construction_value", "iptu", "tile_for_lonlat", "tile_bounds",
           "tiles_covering", "quadkey", "next_status", "free_slots"]
