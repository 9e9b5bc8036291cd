// json.Unmarshal and Decoder.Decode into values that hold cell structs
// (slices, arrays, maps, pointers, nested structs) and types with
// UnmarshalJSON and UnmarshalText methods: null, type errors with Go's
// struct and field path, a slice's elements reused up to its capacity
// (issue 20, item 5).
package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

type Celsius float64

func (c *Celsius) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	var f float64
	_, err := fmt.Sscanf(strings.TrimSuffix(s, "C"), "%g", &f)
	*c = Celsius(f)
	return err
}

type Level int

func (l *Level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return fmt.Errorf("bad level %q", b)
	}
	return nil
}

type Reading struct {
	Where string  `json:"where"`
	Temp  Celsius `json:"temp"`
	Lvl   Level   `json:"level"`
	Opt   *Level  `json:"opt"`
	note  string
}

type Station struct {
	Name     string             `json:"name"`
	Readings []Reading          `json:"readings"`
	ByDay    map[string]Reading `json:"by_day"`
	Last     *Reading           `json:"last"`
	When     time.Duration      `json:"when"`
}

func main() {
	var rs []Reading
	err := json.Unmarshal([]byte(`[{"where":"roof","temp":"-3.5C","level":"low","note":"x"},{"where":"lab","opt":"high"}]`), &rs)
	fmt.Println(err, len(rs), rs[0].Where, float64(rs[0].Temp), rs[0].Lvl, rs[0].note == "", *rs[1].Opt)
	var st Station
	err = json.Unmarshal([]byte(`{"name":"s","readings":[{"temp":"1C"}],"by_day":{"mon":{"where":"a"}},"last":{"level":"high"},"when":5}`), &st)
	fmt.Println(err, st.Name, len(st.Readings), float64(st.Readings[0].Temp), st.ByDay["mon"].Where, st.Last.Lvl, st.When)
	err = json.Unmarshal([]byte(`{"last":null,"readings":null}`), &st)
	fmt.Println(err, st.Last == nil, st.Readings == nil)
	err = json.Unmarshal([]byte(`{"readings":[{"level":"mid"}]}`), &st)
	fmt.Println(err)
	err = json.Unmarshal([]byte(`{"readings":[{"level":3}]}`), &st)
	fmt.Println(err)
	var c Celsius
	err = json.Unmarshal([]byte(`"7C"`), &c)
	fmt.Println(err, float64(c))
	err = json.Unmarshal([]byte(`"xC"`), &c)
	fmt.Println(err != nil)
	var pr *Reading
	err = json.Unmarshal([]byte(`{"where":"p"}`), &pr)
	fmt.Println(err, pr.Where)
	err = json.Unmarshal([]byte(`null`), &pr)
	fmt.Println(err, pr == nil)
	var grid [2][]Reading
	err = json.Unmarshal([]byte(`[[{"where":"g"}],[]]`), &grid)
	fmt.Println(err, grid[0][0].Where, len(grid[1]), grid[1] == nil)
	byID := map[int]*Reading{1: {Where: "old"}}
	err = json.Unmarshal([]byte(`{"2":{"where":"two"},"x":{}}`), &byID)
	fmt.Println(err, len(byID), byID[1].Where, byID[2].Where)
	dec := json.NewDecoder(strings.NewReader(`[{"where":"d1"}] [{"where":"d2","temp":"2C"}]`))
	for {
		var batch []Reading
		if err := dec.Decode(&batch); err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(batch[0].Where, float64(batch[0].Temp))
	}
	reuse := make([]Reading, 1, 4)
	reuse = append(reuse, Reading{Where: "kept"})
	err = json.Unmarshal([]byte(`[{"temp":"1C"}]`), &reuse)
	fmt.Println(err, len(reuse), cap(reuse) >= 1, reuse[:2][1].Where)
}
