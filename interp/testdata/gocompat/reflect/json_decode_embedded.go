// An UnmarshalJSON method with the alias idiom (an anonymous struct that
// embeds a pointer to an alias of the type), embedded pointers (filled
// through, allocated where nil, left out of Marshal where nil), and
// json.Unmarshal in go and defer statements.
package main

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

type Event struct {
	Name string    `json:"name"`
	At   time.Time `json:"-"`
	secs int
}

type eventAlias Event

func (e *Event) UnmarshalJSON(b []byte) error {
	aux := struct {
		*eventAlias
		At int64 `json:"at"`
	}{eventAlias: (*eventAlias)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.At = time.Unix(aux.At, 0).UTC()
	e.secs = int(aux.At)
	return nil
}

type Meta struct {
	Tags []string `json:"tags"`
}

type Doc struct {
	*Meta
	Title string `json:"title"`
}

func load(data string) (evs []Event, err error) {
	defer json.Unmarshal([]byte(`[{"name":"deferred"}]`), &evs)
	err = json.Unmarshal([]byte(data), &evs)
	fmt.Println("before defer:", len(evs), err)
	return evs, err
}

func main() {
	var evs []Event
	err := json.Unmarshal([]byte(`[{"name":"a","at":60},{"name":"b","at":0}]`), &evs)
	fmt.Println(err, evs[0].Name, evs[0].At, evs[0].secs, evs[1].Name)
	var d Doc
	err = json.Unmarshal([]byte(`{"title":"t","tags":["x","y"]}`), &d)
	fmt.Println(err, d.Title, d.Meta != nil, d.Tags)
	var d2 Doc
	err = json.Unmarshal([]byte(`{"title":"t2"}`), &d2)
	fmt.Println(err, d2.Title, d2.Meta == nil)
	b, err := json.Marshal(d2)
	fmt.Println(string(b), err)
	b, err = json.Marshal(d)
	fmt.Println(string(b), err)
	evs, err = load(`[{"name":"x"}]`)
	fmt.Println(len(evs), evs[0].Name, err)
	var wg sync.WaitGroup
	out := make([][]Event, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			json.Unmarshal([]byte(fmt.Sprintf(`[{"name":"g%d"}]`, i)), &out[i])
		}()
	}
	wg.Wait()
	fmt.Println(out[0][0].Name, out[1][0].Name, out[2][0].Name)
	var one []Event
	done := make(chan bool)
	go func() { json.Unmarshal([]byte(`[{"name":"go"}]`), &one); done <- true }()
	<-done
	fmt.Println(one[0].Name)
}
