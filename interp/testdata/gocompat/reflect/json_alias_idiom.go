// The alias idiom of MarshalJSON and UnmarshalJSON methods, with the alias
// declared at the top level: json of an anonymous struct that embeds the
// alias (or a pointer to it) and adds a field.
package main

import (
	"encoding/json"
	"fmt"
)

type Event struct {
	Name string `json:"name"`
	secs int
}

type eventJSON Event

func (e Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		eventJSON
		At int `json:"at"`
	}{eventJSON(e), e.secs})
}

func (e *Event) UnmarshalJSON(b []byte) error {
	aux := struct {
		*eventJSON
		At int `json:"at"`
	}{eventJSON: (*eventJSON)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.secs = aux.At
	return nil
}

type Log struct {
	Events []Event `json:"events"`
}

func main() {
	l := Log{[]Event{{"a", 1}, {"b", 2}}}
	b, err := json.Marshal(l)
	fmt.Println(string(b), err)
	var back Log
	err = json.Unmarshal(b, &back)
	fmt.Println(err, back.Events[1].Name, back.Events[1].secs)
}
