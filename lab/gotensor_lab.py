"""gotensor_lab serves the JupyterLab front end that `gotensor lab`
assembled (build/, next to this file) with Debian's jupyterlab_server and
jupyter_server: the REST API for contents, kernels and sessions comes from
jupyter_server, the settings, themes, translations and workspaces API from
jupyterlab_server's LabServerApp.

`gotensor lab` runs it as

    /usr/bin/python3 gotensor_lab.py --ServerApp.port=N --ServerApp.root_dir=DIR ...

with the token in $JUPYTER_TOKEN. Every --ServerApp.* option of
jupyter_server works here.
"""

import getpass
import json
import os

from jupyter_core.paths import jupyter_config_dir
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from jupyterlab_server import LabServerApp
from tornado import web
from tornado.web import StaticFileHandler

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "build")
# Debian's MathJax 2 (libjs-mathjax), served from this server so that LaTeX
# renders without reaching a CDN.
MATHJAX = "/usr/share/javascript/mathjax"


def _version():
    with open(os.path.join(HERE, "package.json")) as f:
        return json.load(f)["version"]


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": GotensorLab}]


class IdentityHandler(APIHandler):
    """Answers GET /api/me, which JupyterLab 3.6 asks for and
    jupyter_server 1.x lacks (2.x has it), with the user running the
    server."""

    @web.authenticated
    def get(self):
        name = getpass.getuser()
        self.finish(json.dumps({
            "identity": {"username": name, "name": name, "display_name": name,
                         "initials": name[:1].upper(), "avatar_url": None, "color": None},
            "permissions": {},
        }))


class GotensorLab(LabServerApp):
    """The JupyterLab application at /lab, from the files in build/."""

    name = "gotensor_lab"
    app_name = "JupyterLab"
    app_version = _version()
    extension_url = "/lab"
    default_url = "/lab"
    load_other_extensions = False
    open_browser = False

    static_dir = BUILD
    templates_dir = os.path.join(HERE, "templates")
    schemas_dir = os.path.join(BUILD, "schemas")
    themes_dir = os.path.join(BUILD, "themes")
    app_settings_dir = os.path.join(BUILD, "application_settings")
    # Where JupyterLab itself keeps them, so that both share a user's
    # settings and saved layouts.
    user_settings_dir = os.path.join(jupyter_config_dir(), "lab", "user-settings")
    workspaces_dir = os.path.join(jupyter_config_dir(), "lab", "workspaces")

    def initialize_handlers(self):
        super().initialize_handlers()
        self.handlers.append(("api/me", IdentityHandler))
        if os.path.isfile(os.path.join(MATHJAX, "MathJax.js")):
            base = self.serverapp.base_url
            self.serverapp.web_app.settings["mathjax_url"] = url_path_join(base, "mathjax/MathJax.js")
            # jupyter_server puts the base URL before each handler's pattern.
            self.handlers.append(("mathjax/(.*)", StaticFileHandler, {"path": MATHJAX}))


main = launch_new_instance = GotensorLab.launch_instance

if __name__ == "__main__":
    main()
