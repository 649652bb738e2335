package main

import (
	"log"

	"example.com/back/internal/gateway"
)

func main() {
	log.Fatal(gateway.Serve())
}
