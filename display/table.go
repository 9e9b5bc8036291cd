package display

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table publishes a table: headers (nil for none) over rows. rows is a
// slice of rows, each a slice or array of cells: [][]string, [][]any,
// [][]float64, ... Cells are formatted with fmt's %v, floats in their
// shortest form; columns whose cells are all numbers are right-aligned.
//
//	display.Table([]string{"layer", "output", "params"}, [][]any{
//		{"Linear", "[128 256]", 200960},
//		{"ReLU", "[128 256]", 0},
//	})
//
// Table panics when rows is not a slice of slices.
func Table(headers []string, rows any) { publish(TableBundle(headers, rows), "", false) }

// TableBundle returns the bundle Table publishes: "text/html" with a
// table, and "text/plain" with the same table in aligned columns.
func TableBundle(headers []string, rows any) Bundle {
	cells, numeric := tableCells(rows)
	ncol := len(headers)
	for _, r := range cells {
		ncol = max(ncol, len(r))
	}
	// A column is numeric when every one of its non-empty cells is.
	isNum := make([]bool, ncol)
	for j := range isNum {
		isNum[j] = true
		seen := false
		for i, r := range cells {
			if j < len(r) && r[j] != "" {
				seen = true
				isNum[j] = isNum[j] && numeric[i][j]
			}
		}
		isNum[j] = isNum[j] && seen
	}
	return Bundle{Data: map[string]any{
		"text/html":  tableHTML(headers, cells, isNum),
		"text/plain": tableText(headers, cells, isNum),
	}}
}

// tableCells formats rows, which must be a slice of slices, and tells which
// cells hold numbers.
func tableCells(rows any) (cells [][]string, numeric [][]bool) {
	if rows == nil {
		return nil, nil
	}
	if s, ok := rows.([][]string); ok {
		for _, r := range s {
			cells = append(cells, r)
			numeric = append(numeric, make([]bool, len(r)))
		}
		return cells, numeric
	}
	rv := reflect.ValueOf(rows)
	if k := rv.Kind(); k != reflect.Slice && k != reflect.Array {
		panic(fmt.Errorf("display: Table: rows is a %T; want a slice of rows such as [][]string or [][]any", rows))
	}
	for i := 0; i < rv.Len(); i++ {
		r := rv.Index(i)
		for r.Kind() == reflect.Interface && !r.IsNil() {
			r = r.Elem()
		}
		if k := r.Kind(); k != reflect.Slice && k != reflect.Array {
			panic(fmt.Errorf("display: Table: row %d is a %s; want a slice of cells", i, r.Type()))
		}
		row := make([]string, r.Len())
		num := make([]bool, r.Len())
		for j := range row {
			row[j], num[j] = formatCell(r.Index(j))
		}
		cells = append(cells, row)
		numeric = append(numeric, num)
	}
	return cells, numeric
}

// formatCell formats one table cell and tells whether it is a number.
func formatCell(v reflect.Value) (string, bool) {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || (v.Kind() == reflect.Interface && v.IsNil()) {
		return "", false
	}
	switch v.Kind() {
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32), true
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if _, ok := v.Interface().(fmt.Stringer); !ok {
			return fmt.Sprint(v.Interface()), true
		}
	}
	if !v.CanInterface() {
		return v.String(), false
	}
	return fmt.Sprint(v.Interface()), false
}

// tableStyle's selectors outrank JupyterLab's own table rules
// (":not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td" right-aligns every
// cell).
const tableStyle = `<style>div.gt-table-wrap table.gt-table{border-collapse:collapse;table-layout:auto;margin:2px 0}` +
	`div.gt-table-wrap table.gt-table th,div.gt-table-wrap table.gt-table td{padding:2px 10px;border:none;text-align:left;white-space:pre}` +
	`div.gt-table-wrap table.gt-table thead th{border-bottom:1px solid rgba(127,127,127,.5);font-weight:600}` +
	`div.gt-table-wrap table.gt-table tbody tr:nth-child(odd){background:rgba(127,127,127,.08)}` +
	`div.gt-table-wrap table.gt-table tbody tr:nth-child(even){background:transparent}` +
	`div.gt-table-wrap table.gt-table .gt-n{text-align:right;font-variant-numeric:tabular-nums}</style>`

func tableHTML(headers []string, cells [][]string, isNum []bool) string {
	var b strings.Builder
	b.WriteString(`<div class="gt-table-wrap" style="overflow-x:auto">`)
	b.WriteString(tableStyle)
	b.WriteString(`<table class="gt-table">`)
	cls := func(j int) string {
		if j < len(isNum) && isNum[j] {
			return ` class="gt-n"`
		}
		return ""
	}
	if len(headers) > 0 {
		b.WriteString("<thead><tr>")
		for j, h := range headers {
			b.WriteString("<th" + cls(j) + ">" + escape(h) + "</th>")
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("<tbody>")
	for _, r := range cells {
		b.WriteString("<tr>")
		for j, c := range r {
			b.WriteString("<td" + cls(j) + ">" + escape(c) + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table></div>")
	return b.String()
}

func tableText(headers []string, cells [][]string, isNum []bool) string {
	width := make([]int, len(isNum))
	measure := func(r []string) {
		for j, c := range r {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	measure(headers)
	for _, r := range cells {
		measure(r)
	}
	var b strings.Builder
	line := func(r []string) {
		var parts []string
		for j := range width {
			c := ""
			if j < len(r) {
				c = r[j]
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if isNum[j] {
				parts = append(parts, pad+c)
			} else {
				parts = append(parts, c+pad)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteByte('\n')
	}
	if len(headers) > 0 {
		line(headers)
		var rule []string
		for _, w := range width {
			rule = append(rule, strings.Repeat("-", w))
		}
		b.WriteString(strings.Join(rule, "  "))
		b.WriteByte('\n')
	}
	for _, r := range cells {
		line(r)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
