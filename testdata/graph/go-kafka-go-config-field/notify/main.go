package main

import (
	"context"
	"log"

	"github.com/caarlos0/env/v11"
)

func main() {
	var s Settings
	if err := env.Parse(&s); err != nil {
		log.Fatal(err)
	}
	w := newEventWriter(s)
	defer w.Close()
	if err := publish(context.Background(), w, []byte("ready")); err != nil {
		log.Print(err)
	}
}
