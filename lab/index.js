// index.js starts the JupyterLab application with the extensions
// `gotensor lab` ships: the list below is the whole front end.
import { JupyterLab } from '@jupyterlab/application';
import { PageConfig } from '@jupyterlab/coreutils';

import './build/style.js';

// Files the bundle loads later (fonts, images) come from the server's
// static URL for this application.
// eslint-disable-next-line no-undef
__webpack_public_path__ = PageConfig.getOption('fullStaticUrl') + '/';

const extensions = [
  require('@jupyterlab/application-extension'),
  require('@jupyterlab/apputils-extension'),
  require('@jupyterlab/codemirror-extension'),
  require('@jupyterlab/completer-extension'),
  require('@jupyterlab/console-extension'),
  require('@jupyterlab/debugger-extension'),
  require('@jupyterlab/docmanager-extension'),
  require('@jupyterlab/docprovider-extension'),
  require('@jupyterlab/filebrowser-extension'),
  require('@jupyterlab/fileeditor-extension'),
  require('@jupyterlab/imageviewer-extension'),
  require('@jupyterlab/inspector-extension'),
  require('@jupyterlab/launcher-extension'),
  require('@jupyterlab/mainmenu-extension'),
  require('@jupyterlab/markdownviewer-extension'),
  require('@jupyterlab/mathjax2-extension'),
  require('@jupyterlab/notebook-extension'),
  require('@jupyterlab/rendermime-extension'),
  require('@jupyterlab/running-extension'),
  require('@jupyterlab/shortcuts-extension'),
  require('@jupyterlab/statusbar-extension'),
  require('@jupyterlab/theme-light-extension'),
  require('@jupyterlab/tooltip-extension'),
  require('@jupyterlab/translation-extension'),
  // Jupyter widgets (ipywidgets' protocol 2.1.0): the widget manager and the
  // base, controls and output widgets, for the Go package widgets.
  require('@jupyter-widgets/jupyterlab-manager')
];

// The news announcements ask a server gotensor does not run; the page
// config's disabledExtensions turns off more.
const skipped = ['@jupyterlab/apputils-extension:announcements'];

window.addEventListener('load', async () => {
  const lab = new JupyterLab();
  for (const mod of extensions) {
    const exported = mod.default || mod;
    const plugins = Array.isArray(exported) ? exported : [exported];
    lab.registerPlugins(
      plugins.filter(
        p => !skipped.includes(p.id) && !PageConfig.Extension.isDisabled(p.id)
      )
    );
  }
  await lab.start();
  await lab.restored;
  // The browser tests wait for this.
  document.body.dataset.gotensorLab = 'ready';
});
