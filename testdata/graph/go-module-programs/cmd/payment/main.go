package main

import (
	"log"

	"example.com/back/internal/payment"
)

func main() {
	log.Fatal(payment.Serve())
}
