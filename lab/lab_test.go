package lab

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

type manifest struct {
	Version         string            `json:"version"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

type lockfile struct {
	Packages map[string]struct {
		Version   string `json:"version"`
		Resolved  string `json:"resolved"`
		Integrity string `json:"integrity"`
		Link      bool   `json:"link"`
	} `json:"packages"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestPinned checks that package.json names exact versions of JupyterLab
// 3.6 packages, that package-lock.json installs exactly those, and that
// every package in the lock comes from the npm registry (no git or file
// dependencies) with an integrity hash.
func TestPinned(t *testing.T) {
	var m manifest
	var l lockfile
	readJSON(t, "package.json", &m)
	readJSON(t, "package-lock.json", &l)
	if m.Version != Version {
		t.Errorf("package.json's version is %s, lab.Version %s", m.Version, Version)
	}
	exact := regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	all := map[string]string{}
	for n, v := range m.Dependencies {
		all[n] = v
	}
	for n, v := range m.DevDependencies {
		all[n] = v
	}
	for name, want := range all {
		if !exact.MatchString(want) {
			t.Errorf("package.json: %s %q is not an exact version", name, want)
		}
		got := l.Packages["node_modules/"+name].Version
		if got != want {
			t.Errorf("package-lock.json installs %s %s, package.json asks for %s", name, got, want)
		}
		if strings.HasSuffix(name, "-extension") && want != Version {
			t.Errorf("%s is %s, not JupyterLab %s", name, want, Version)
		}
	}
	if len(l.Packages) < 100 {
		t.Fatalf("package-lock.json lists %d packages; JupyterLab needs hundreds", len(l.Packages))
	}
	for path, p := range l.Packages {
		if path == "" || p.Link {
			continue
		}
		// npm leaves "resolved" out where the lock is written without
		// registry addresses: then the package comes from the registry npm
		// is configured with.
		fromRegistry := p.Resolved == "" || strings.HasPrefix(p.Resolved, "https://registry.npmjs.org/")
		if !fromRegistry || !strings.HasPrefix(p.Integrity, "sha512-") {
			t.Errorf("package-lock.json: %s comes from %q (integrity %q), not the npm registry", path, p.Resolved, p.Integrity)
		}
	}
}

// TestExtensionsLoaded checks that index.js starts exactly the extension
// packages that package.json installs: JupyterLab's, and the widget
// manager of ipywidgets.
func TestExtensionsLoaded(t *testing.T) {
	var m manifest
	readJSON(t, "package.json", &m)
	var want []string
	for n := range m.Dependencies {
		if strings.HasSuffix(n, "-extension") || n == widgetManager {
			want = append(want, n)
		}
	}
	sort.Strings(want)
	src, err := os.ReadFile("index.js")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range regexp.MustCompile(`require\('([^']+)'\)`).FindAllStringSubmatch(string(src), -1) {
		got = append(got, s[1])
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("index.js loads\n%v\npackage.json installs the extensions\n%v", got, want)
	}
	for _, e := range []string{"notebook", "console", "filebrowser", "completer", "tooltip", "inspector",
		"rendermime", "mathjax2", "debugger", "mainmenu", "launcher"} {
		if _, ok := m.Dependencies["@jupyterlab/"+e+"-extension"]; !ok {
			t.Errorf("package.json lacks @jupyterlab/%s-extension", e)
		}
	}
}

// widgetManager is the JupyterLab extension that draws Jupyter widgets.
const widgetManager = "@jupyter-widgets/jupyterlab-manager"

// TestWidgetManager checks that the widget manager is 5.0.15, the last
// release that supports JupyterLab 3, with the widget packages it needs at
// releases that still accept JupyterLab 3's packages (later ones require
// @jupyterlab/services 7 and Lumino 2, and npm would install JupyterLab 4's
// packages beside 3.6's), and that the lock holds no JupyterLab 4 package.
func TestWidgetManager(t *testing.T) {
	var m manifest
	var l lockfile
	readJSON(t, "package.json", &m)
	readJSON(t, "package-lock.json", &l)
	for name, want := range map[string]string{
		widgetManager:                   "5.0.15",
		"@jupyter-widgets/base":         "6.0.11",
		"@jupyter-widgets/base-manager": "1.0.12",
		"@jupyter-widgets/controls":     "5.0.12",
		"@jupyter-widgets/output":       "6.0.11",
	} {
		if m.Dependencies[name] != want {
			t.Errorf("package.json: %s %q, want %s", name, m.Dependencies[name], want)
		}
	}
	// One copy of each JupyterLab and Lumino package, JupyterLab 3's: a
	// package of JupyterLab 4 would come as a second, nested copy.
	copies := map[string][]string{}
	for path, p := range l.Packages {
		i := strings.LastIndex(path, "node_modules/")
		if i < 0 {
			continue
		}
		name := path[i+len("node_modules/"):]
		if strings.HasPrefix(name, "@jupyterlab/") || strings.HasPrefix(name, "@lumino/") {
			copies[name] = append(copies[name], path+" "+p.Version)
		}
	}
	for name, c := range copies {
		if len(c) > 1 {
			t.Errorf("package-lock.json installs %d copies of %s: %v", len(c), name, c)
		}
	}
	for name, major := range map[string]string{"@jupyterlab/services": "6.", "@lumino/widgets": "1.", "@lumino/coreutils": "1."} {
		if v := l.Packages["node_modules/"+name].Version; !strings.HasPrefix(v, major) {
			t.Errorf("package-lock.json installs %s %s, not JupyterLab 3's (%sx)", name, v, major)
		}
	}
}

// TestSources checks that the embedded sources are the files in this
// directory, so that `gotensor lab` builds what lab/assemble.sh builds.
func TestSources(t *testing.T) {
	dir := t.TempDir()
	if err := writeSources(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"package.json", "package-lock.json", "webpack.config.js", "index.js",
		"templates/index.html", "gotensor_lab.py", "assemble.sh"} {
		a, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			t.Fatalf("writeSources did not write %s: %v", name, err)
		}
		if string(a) != string(b) {
			t.Errorf("the embedded %s differs from the file", name)
		}
	}
}
