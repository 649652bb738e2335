// The checkout program: a gRPC client of shipping, and a profiler started
// with a hand-written retry loop of its own.
package main

import (
	"log"
	"os"
	"time"

	"cloud.google.com/go/profiler"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	go startProfiler()
	conn := mustConnect(os.Getenv("SHIPPING_ADDR"))
	defer conn.Close()
}

func mustConnect(addr string) *grpc.ClientConn {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	return conn
}

func startProfiler() {
	for i := 1; i <= 3; i++ {
		if err := profiler.Start(profiler.Config{Service: "checkout"}); err != nil {
			log.Printf("profiler: %v", err)
		} else {
			return
		}
		time.Sleep(time.Second * 10 * time.Duration(i))
	}
}
