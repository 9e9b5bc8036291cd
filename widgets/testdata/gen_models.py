#!/usr/bin/env python3
"""Writes models.json, the reference the widgets tests check every model's
state against: for each model this package makes, its module and version,
its view, and each attribute's JSON type, from ipywidgets' own
specification of ipywidgets 8's models, packages/schema/jupyterwidgetmodels.latest.json
in github.com/jupyter-widgets/ipywidgets (BSD-3-Clause; generated there
from the Python classes' traits).

    python3 gen_models.py path/to/jupyterwidgetmodels.latest.json > models.json
"""

import json
import sys

MODELS = [
    "LayoutModel", "IntSliderModel", "FloatSliderModel", "FloatLogSliderModel", "SliderStyleModel",
    "DropdownModel", "DescriptionStyleModel", "CheckboxModel", "CheckboxStyleModel", "TextModel",
    "TextStyleModel", "ButtonModel", "ButtonStyleModel", "LabelModel", "LabelStyleModel", "HTMLModel",
    "HTMLStyleModel", "ImageModel", "FloatProgressModel", "ProgressStyleModel", "OutputModel",
    "HBoxModel", "VBoxModel",
]


def main(path):
    spec = {m["model"]["name"]: m for m in json.load(open(path))}
    out = {}
    for name in MODELS:
        m = spec[name]
        attrs = {}
        for a in m["attributes"]:
            t = {"type": a["type"]}
            for k in ("allow_none", "widget"):
                if a.get(k):
                    t[k] = a[k]
            if "items" in a:
                t["items"] = a["items"].get("type", "any")
            attrs[a["name"]] = t
        out[name] = {"model": m["model"], "view": m["view"], "attributes": attrs}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
