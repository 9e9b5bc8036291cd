// webpack.config.js builds the JupyterLab front end that `gotensor lab`
// serves: every @jupyterlab/* package in package.json's dependencies that is
// a JupyterLab extension goes into one bundle, build/bundle.js, and
// @jupyterlab/builder copies their settings schemas to build/schemas,
// builds their themes into build/themes and writes build/style.js, which
// imports each extension's CSS. jupyterlab_server serves build/ as the
// application's static files (gotensor_lab.py).
const path = require('path');
const webpack = require('webpack');
const { Build } = require('@jupyterlab/builder');
const pkg = require('./package.json');

const build = path.resolve(__dirname, 'build');

// The extensions are the dependencies whose package.json has a
// "jupyterlab" section.
const extensions = Object.keys(pkg.dependencies).filter(
  name => require(`${name}/package.json`).jupyterlab !== undefined
);

const themes = Build.ensureAssets({ packageNames: extensions, output: build });

module.exports = [
  {
    entry: './index.js',
    output: { path: build, filename: 'bundle.js' },
    mode: 'production',
    bail: true,
    performance: { hints: false },
    module: {
      rules: [
        { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        { test: /\.html$/, type: 'asset/resource' },
        { test: /\.md$/, type: 'asset/source' },
        { test: /\.(jpg|png|gif|woff2?|ttf|eot)$/, type: 'asset/resource' },
        // CSS refers to icons as data URIs; the code reads SVG as text.
        { test: /\.svg$/, issuer: /\.css$/, type: 'asset/inline' },
        { test: /\.svg$/, issuer: /\.js$/, type: 'asset/source' }
      ]
    },
    resolve: { fallback: { path: require.resolve('path-browserify') } },
    plugins: [
      new webpack.ProvidePlugin({ process: require.resolve('process/browser') }),
      // One chunk: the bundle works from whatever URL the server gives it.
      new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })
    ]
  }
].concat(themes);
