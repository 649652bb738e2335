// The dispatch program: two addresses from the environment, each with a
// default written here.
package main

import (
	"fmt"
	"net/http"
	"os"
)

func main() {
	ordersHost, ok := os.LookupEnv("ORDERS_HOST")
	if !ok {
		ordersHost = "orders"
	}
	stockHost := os.Getenv("STOCK_HOST")
	if stockHost == "" {
		stockHost = "stock"
	}
	_, _ = http.Get(fmt.Sprintf("http://%s:8080/pending", ordersHost))
	_, _ = http.Get("http://" + stockHost + ":8080/levels")
}
