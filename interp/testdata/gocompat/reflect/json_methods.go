// A cell type's MarshalJSON and UnmarshalJSON methods.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Celsius float64

func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%.1fC"`, float64(c))), nil
}

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

type Reading struct {
	Where string  `json:"where"`
	Temp  Celsius `json:"temp"`
}

func main() {
	b, err := json.Marshal(Reading{"lab", 21.5})
	fmt.Println(string(b), err)
	b, _ = json.Marshal(Celsius(3))
	fmt.Println(string(b))
	var r Reading
	err = json.Unmarshal([]byte(`{"where":"roof","temp":"-3.5C"}`), &r)
	fmt.Println(r.Where, float64(r.Temp), err)
}
